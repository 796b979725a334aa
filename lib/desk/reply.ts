import { and, eq } from 'drizzle-orm';
import { apiKeys, campaigns, drafts, leads, replies } from '../../schema';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { isUuid } from '../ids';
import { threadOfLead } from '../leads/thread';
import type { Tenant } from '../tenancy';
import type { QueuingKey } from './queue';

export const noReplyHere = () => new ApiError('not_found', 'There is no reply at this address.');

/**
 * One reply as the desk shows it: the reply, its lead and campaign, the whole conversation in time order (as the
 * portal's lead page reads thread_messages) and the pending draft with the key that queued it, if any. Another
 * organization's reply, an unknown id or a malformed one are all the same 404.
 */
export async function deskReplyPage(db: Db, tenant: Tenant, replyId: string) {
  if (!isUuid(replyId)) throw noReplyHere();
  const [row] = await db
    .select({ reply: replies, leadName: leads.name, leadEmail: leads.email, leadId: leads.id, campaignName: campaigns.name })
    .from(replies)
    .innerJoin(leads, eq(leads.id, replies.leadId))
    .innerJoin(campaigns, eq(campaigns.id, replies.campaignId))
    .where(and(eq(replies.id, replyId), eq(replies.orgId, tenant.orgId)));
  if (!row) throw noReplyHere();
  const [pending] = await db
    .select({ draft: drafts, keyName: apiKeys.name, keyLevel: apiKeys.autonomyLevel })
    .from(drafts)
    .leftJoin(apiKeys, and(eq(apiKeys.id, drafts.keyId), eq(apiKeys.orgId, tenant.orgId)))
    .where(and(eq(drafts.replyId, replyId), eq(drafts.orgId, tenant.orgId)));
  const thread = await threadOfLead(db, tenant.orgId, row.leadId);
  const key: QueuingKey = pending && pending.keyName !== null && pending.keyLevel !== null ? { name: pending.keyName, autonomyLevel: pending.keyLevel } : null;
  return {
    reply: row.reply,
    lead: { id: row.leadId, name: row.leadName, email: row.leadEmail },
    campaignName: row.campaignName,
    draft: pending ? { ...pending.draft, key } : null,
    thread,
  };
}

export type DeskReplyPage = Awaited<ReturnType<typeof deskReplyPage>>;
