import { deskTenant } from '../../../lib/desk/actor';
import { listDeskQueue } from '../../../lib/desk/queue';
import { approveReply } from '../review/approve';
import { editReply } from '../review/edit';
import { when } from '../review/labels';
import { queuePage } from '../review/queue_page';
import { rejectReply } from '../review/reject';
import { replyPage } from '../review/reply_page';
import { skipDeskReply } from '../review/skip';
import type { DeskSection } from './section';

const SHORT_LIST = 5;

/** Governed send's review queue (core §3): drafts a key at autonomy level 0 or 1 could not send on its own. */
export const reviewSection: DeskSection = {
  id: 'review',
  title: 'Drafts waiting for review',
  href: '/replies',
  async summary({ services, session, base }) {
    const { items, total } = await listDeskQueue(services.db, deskTenant(session), 1, SHORT_LIST);
    return {
      count: total,
      items: items.map((i) => ({
        href: `${base}/replies/${i.replyId}`,
        text: `${i.reply.fromName ?? i.reply.fromEmail}${i.reply.subject ? `: ${i.reply.subject}` : ''}`,
        meta: `${i.campaignName} · queued ${when(i.queuedAt)}`,
      })),
    };
  },
  pages: [
    { method: 'GET', pattern: '/replies', handle: queuePage },
    { method: 'GET', pattern: '/replies/:id', handle: replyPage },
    { method: 'POST', pattern: '/replies/:id/approve', handle: approveReply },
    { method: 'POST', pattern: '/replies/:id/edit', handle: editReply },
    { method: 'POST', pattern: '/replies/:id/reject', handle: rejectReply },
    { method: 'POST', pattern: '/replies/:id/skip', handle: skipDeskReply },
  ],
};
