import { deskTenant } from '../../../lib/desk/actor';
import { DESK_BODY_MAX, DESK_REASON_MAX } from '../../../lib/desk/forms';
import { draftFingerprint } from '../../../lib/desk/pending';
import { deskReplyPage, type DeskReplyPage } from '../../../lib/desk/reply';
import type { PageArgs } from '../../../lib/web/face';
import { Layout } from '../../../lib/web/layout';
import { keyText, reasonText, signedIn, when } from './labels';

const ROLE = { reply: 'From the prospect', outbound: 'Sent to the prospect' } as const;

/** A notice above the page: the edit that was saved but not sent, and why. */
export type ReplyNotice = { title: string; message: string };

/** GET /desk/replies/{id}: the reply, the whole thread in order, the draft and the four decisions on it. */
export async function replyPage(args: PageArgs) {
  return renderReplyPage(args);
}

export async function renderReplyPage(args: PageArgs, opts: { status?: number; notice?: ReplyNotice } = {}) {
  const { c, services, base, session, params } = args;
  const page = await deskReplyPage(services.db, deskTenant(session), params.id);
  const { reply } = page;
  const who = reply.fromName ?? reply.fromEmail;
  return c.html(
    <Layout title={`Reply from ${who}`} base={base} faceName="Review desk" signedInAs={signedIn(session)}>
      <nav aria-label="Back">
        <a href={`${base}/replies`}>Drafts waiting for review</a>
      </nav>
      <h1>{`Reply from ${who}`}</h1>
      {opts.notice ? (
        <div class="alert" role="alert">
          <h2>{opts.notice.title}</h2>
          <p>{opts.notice.message}</p>
        </div>
      ) : null}
      {/* On wide screens (the stylesheet's .review-grid) the reply and the thread on the left, the draft and its
          decisions on the right; on a phone one column in this order: the reply, the draft, then the thread. */}
      <div class="review-grid">
        <section aria-labelledby="reply-title" class="area-reply">
          <h2 id="reply-title">The prospect’s reply</h2>
          <dl class="fields">
            <dt>From</dt>
            <dd>{reply.fromName ? `${reply.fromName} <${reply.fromEmail}>` : reply.fromEmail}</dd>
            <dt>Subject</dt>
            <dd>{reply.subject ?? '(no subject)'}</dd>
            <dt>Received</dt>
            <dd>{when(reply.receivedAt)}</dd>
            <dt>Campaign</dt>
            <dd>{page.campaignName}</dd>
          </dl>
          <blockquote class="message">{reply.bodyStripped}</blockquote>
        </section>
        <div class="area-decision">
          <Decision page={page} base={base} csrf={session.csrfToken} approver={session.user.name} sha={page.draft ? await draftFingerprint(page.draft.body) : ''} />
        </div>
        <section aria-labelledby="thread-title" class="area-thread">
          <h2 id="thread-title">Conversation</h2>
          {page.thread.length === 0 ? (
            <p>No messages recorded.</p>
          ) : (
            <ol class="thread">
              {page.thread.map((m) => (
                <li class={m.replyId === reply.id && m.role === 'reply' ? `${m.role} current` : m.role}>
                  <span class="meta">{`${ROLE[m.role]} · ${when(m.at)}${m.replyId === reply.id && m.role === 'reply' ? ' · this reply' : ''}`}</span>
                  <p>{m.content}</p>
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </Layout>,
    (opts.status ?? 200) as 200,
  );
}

function Decision(props: { page: DeskReplyPage; base: string; csrf: string; approver: string; sha: string }) {
  const { page, base, csrf, sha } = props;
  const action = (op: string) => `${base}/replies/${page.reply.id}/${op}`;
  const token = <input type="hidden" name="_csrf" value={csrf} />;
  // The text the page shows: the desk refuses to act on a draft that changed since (lib/desk/pending.ts).
  const hidden = [token, <input type="hidden" name="draft_sha" value={sha} />];
  const skip = (
    <form method="post" action={action('skip')} class="decision">
      {token}
      <label for="skip-reason">Reason for skipping (optional)</label>
      <input type="text" id="skip-reason" name="reason" maxlength={DESK_REASON_MAX} />
      <button type="submit">Skip</button>
    </form>
  );
  if (page.reply.status === 'sent') {
    return (
      <section aria-labelledby="draft-title">
        <h2 id="draft-title">Answer</h2>
        <p>{`This reply was already sent${page.reply.sentAt ? ` at ${when(page.reply.sentAt)}` : ''}.`}</p>
      </section>
    );
  }
  if (page.reply.status === 'skipped') {
    return (
      <section aria-labelledby="draft-title">
        <h2 id="draft-title">Answer</h2>
        <p>This reply was skipped: it will not be answered.</p>
      </section>
    );
  }
  if (!page.draft) {
    return (
      <section aria-labelledby="draft-title">
        <h2 id="draft-title">Answer</h2>
        <p>No draft waits for review for this reply.</p>
        {skip}
      </section>
    );
  }
  const draft = page.draft;
  return (
    <section aria-labelledby="draft-title">
      <h2 id="draft-title">Draft waiting for review</h2>
      <dl class="fields">
        <dt>Why it waits</dt>
        <dd>{reasonText(draft.reason)}</dd>
        <dt>Queued by</dt>
        <dd>{keyText(draft.key)}</dd>
        <dt>Queued</dt>
        <dd>{when(draft.queuedAt)}</dd>
      </dl>
      <form method="post" action={action('edit')} class="decision">
        {hidden}
        <label for="draft-body">Reply to send</label>
        <textarea id="draft-body" name="body" rows={10} maxlength={DESK_BODY_MAX} required aria-describedby="draft-help">
          {/* An HTML parser drops one newline right after <textarea>: this one, so a draft's own first line survives. */}
          {`\n${draft.body}`}
        </textarea>
        <p id="draft-help" class="help">
          “Approve and send” sends the draft as it was queued. To send your changes to the text, use “Save edit and send”.
        </p>
        <button type="submit">Save edit and send</button>
      </form>
      <form method="post" action={action('approve')} class="decision">
        {hidden}
        <button type="submit" class="primary">
          Approve and send <span class="as">{`as ${props.approver}`}</span>
        </button>
      </form>
      <form method="post" action={action('reject')} class="decision">
        {hidden}
        <label for="reject-reason">Reason for rejecting</label>
        <input type="text" id="reject-reason" name="reason" maxlength={DESK_REASON_MAX} required />
        <button type="submit">Reject</button>
      </form>
      {skip}
    </section>
  );
}
