import { deskTenant } from '../../../lib/desk/actor';
import { listDeskQueue } from '../../../lib/desk/queue';
import { isUuid } from '../../../lib/ids';
import { parsePageNumber } from '../../../lib/web/paging';
import { ApiError } from '../../../lib/errors';
import type { PageArgs } from '../../../lib/web/face';
import { Layout } from '../../../lib/web/layout';
import { DONE, type Done } from './done';
import { keyText, reasonText, signedIn, when } from './labels';

const PREVIEW_CHARS = 400;
const preview = (s: string) => (s.length > PREVIEW_CHARS ? `${s.slice(0, PREVIEW_CHARS)}…` : s);

/** GET /desk/replies: the drafts waiting for review, oldest first, 20 a page; `?done=` confirms the last action. */
export async function queuePage({ c, services, base, session, problem }: PageArgs) {
  let page: number;
  try {
    page = parsePageNumber(c.req.query('page'));
  } catch (err) {
    if (err instanceof ApiError) return problem(400, 'No such page', err.message);
    throw err;
  }
  const { items, total, hasMore } = await listDeskQueue(services.db, deskTenant(session), page);
  const done = c.req.query('done');
  const doneReply = c.req.query('reply');
  const confirmation = done && Object.hasOwn(DONE, done) ? DONE[done as Done] : null;
  return c.html(
    <Layout title="Drafts waiting for review" base={base} faceName="Review desk" signedInAs={signedIn(session)}>
      <nav aria-label="Back">
        <a href={`${base}/`}>Review desk</a>
      </nav>
      <h1>Drafts waiting for review</h1>
      {confirmation ? (
        <p class="status" role="status">
          {confirmation} {doneReply && isUuid(doneReply) ? <a href={`${base}/replies/${doneReply}`}>Open the reply</a> : null}
        </p>
      ) : null}
      <p>{total === 0 ? 'Nothing waits for review.' : `${total} draft${total === 1 ? '' : 's'} waiting, oldest first.`}</p>
      {items.length === 0 && total > 0 ? <p>This page is past the end of the queue.</p> : null}
      <ol class="queue">
        {items.map((i) => (
          <li>
            <article class="card" aria-labelledby={`q-${i.replyId}`} data-reply-id={i.replyId}>
              <h2 id={`q-${i.replyId}`}>
                <a href={`${base}/replies/${i.replyId}`}>{`${i.reply.fromName ?? i.reply.fromEmail}: ${i.reply.subject ?? '(no subject)'}`}</a>
              </h2>
              <dl class="fields">
                <dt>From</dt>
                <dd>{i.reply.fromEmail}</dd>
                <dt>Campaign</dt>
                <dd>{i.campaignName}</dd>
                <dt>Received</dt>
                <dd>{when(i.reply.receivedAt)}</dd>
                <dt>Queued</dt>
                <dd>{when(i.queuedAt)}</dd>
                <dt>Why it waits</dt>
                <dd>{reasonText(i.reason)}</dd>
                <dt>Queued by</dt>
                <dd>{keyText(i.key)}</dd>
              </dl>
              <div class="pair">
                <div>
                  <h3 class="label">Their reply</h3>
                  <blockquote class="message">{preview(i.reply.text)}</blockquote>
                </div>
                <div>
                  <h3 class="label">The draft</h3>
                  <p class="message draft">{preview(i.draftBody)}</p>
                </div>
              </div>
              <p>
                <a href={`${base}/replies/${i.replyId}`}>{`Review the draft for ${i.reply.fromName ?? i.reply.fromEmail}`}</a>
              </p>
            </article>
          </li>
        ))}
      </ol>
      {page > 1 || hasMore ? (
        <nav class="pager" aria-label="Pages">
          {page > 1 ? <a href={`${base}/replies${page > 2 ? `?page=${page - 1}` : ''}`} rel="prev">Previous page</a> : null}
          {hasMore ? <a href={`${base}/replies?page=${page + 1}`} rel="next">Next page</a> : null}
        </nav>
      ) : null}
    </Layout>,
  );
}
