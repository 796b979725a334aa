// The review desk's queue (issue 19): drafts queued by governed send, worked as pages through the existing verbs —
// exactly-once send, Decision Trail, events, limits — with refusals as pages, CSRF, tenant isolation and escaping.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drafts, replies } from '../../schema';
import { approveDraft, sendReply } from '../../lib/sending';
import { freshLimitWindow, startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { act, draftShaOf, queuedDraft, queueIdsOf, signInDesk } from './desk_helpers';
import { invitePortalUser, page, signIn } from './portal_helpers';
import { eventsOf, keyAt, outbox, trail } from './send_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const replyRow = async (id: string) => (await env.services.db.select().from(replies).where(eq(replies.id, id)))[0];
const draftRow = async (id: string) => (await env.services.db.select().from(drafts).where(eq(drafts.replyId, id)))[0];

describe('the queue', () => {
  it('lists a draft queued by a level-1 key with the reply, campaign, reason and autonomy level; the home counts it', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const level1 = await t.addKey({ name: 'Writer bot', autonomy_level: 1, scopes: ['*'] });
    const older = await queuedDraft(t, 'First draft', { from_email: 'jo@acme.io', from_name: 'Jo Lee', subject: 'Pricing?', body: 'Could you send pricing?' }, level1);
    env.clock.advance(1000);
    const newer = await queuedDraft(t, 'Second draft');
    await t.reply(); // unanswered, no draft: not in the queue

    const q = await page(env, '/desk/replies', { cookie: desk.cookie });
    expect(q.status, q.html).toBe(200);
    expect(q.html).toContain('<h1>Drafts waiting for review</h1>');
    expect(queueIdsOf(q.html)).toEqual([older.id, newer.id]);
    const first = q.html.slice(q.html.indexOf(older.id), q.html.indexOf(newer.id));
    for (const text of ['jo@acme.io', 'Jo Lee: Pricing?', 'Campaign A', 'Could you send pricing?', 'First draft', 'Writer bot, autonomy level 1', 'Autonomy level 1: every draft of this key needs a person’s approval.']) {
      expect(first).toContain(text);
    }
    const home = await page(env, '/desk/', { cookie: desk.cookie });
    expect(home.status).toBe(200);
    expect(home.html).toMatch(/<h2 id="section-review"><a href="\/desk\/replies">Drafts waiting for review<\/a><\/h2>/);
    expect(home.html).toContain('2 waiting.');
    expect(home.html).toContain(`/desk/replies/${older.id}`);
  });

  it('says so when the key that queued the draft is gone, and pages 20 at a time', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const ids: string[] = [];
    for (let i = 0; i < 21; i++) {
      ids.push((await queuedDraft(t, `Draft ${i}`)).id);
      env.clock.advance(10);
    }
    const one = await page(env, '/desk/replies', { cookie: desk.cookie });
    expect(queueIdsOf(one.html)).toEqual(ids.slice(0, 20));
    expect(one.html).toContain('href="/desk/replies?page=2"');
    const two = await page(env, '/desk/replies?page=2', { cookie: desk.cookie });
    expect(queueIdsOf(two.html)).toEqual([ids[20]]);
    expect(two.html).not.toContain('rel="next"');
    // A deleted key: drafts.key_id becomes null.
    await env.services.db.update(drafts).set({ keyId: null }).where(eq(drafts.replyId, ids[20]));
    expect((await page(env, '/desk/replies?page=2', { cookie: desk.cookie })).html).toContain('The key that queued it was deleted: its autonomy level is unknown.');
    // Its edit still saves and sends.
    expect((await act(env, desk, ids[20], 'edit', { body: 'Edited after the key was deleted' })).status).toBe(303);
    expect((await outbox(t)).map((m) => m.body)).toEqual(['Edited after the key was deleted']);
  });

  it('a page that is not a page number is a 400 page', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    for (const p of ['abc', '0', '-1', '1.5', '99999999']) {
      const r = await page(env, `/desk/replies?page=${p}`, { cookie: desk.cookie });
      expect(r.status, p).toBe(400);
      expect(r.html).toContain('Page must be a whole number');
    }
  });

  it("shows only the desk user's organization; another organization's reply is a 404 page, and nothing is done", async () => {
    const t = await newTenant(env);
    const other = await newTenant(env);
    const desk = await signInDesk(env, t);
    const mine = await queuedDraft(t);
    const theirs = await queuedDraft(other);
    expect(queueIdsOf((await page(env, '/desk/replies', { cookie: desk.cookie })).html)).toEqual([mine.id]);
    for (const id of [theirs.id, '00000000-0000-4000-8000-000000000000', 'not-a-uuid']) {
      const r = await page(env, `/desk/replies/${id}`, { cookie: desk.cookie });
      expect(r.status, id).toBe(404);
      expect(r.html).toContain('There is no reply at this address.');
    }
    const mineShown = await page(env, `/desk/replies/${mine.id}`, { cookie: desk.cookie });
    const csrf = /name="_csrf" value="([^"]+)"/.exec(mineShown.html)![1];
    for (const op of ['approve', 'edit', 'reject', 'skip']) {
      const r = await page(env, `/desk/replies/${theirs.id}/${op}`, { cookie: desk.cookie, form: { _csrf: csrf, draft_sha: 'a'.repeat(64), body: 'x', reason: 'r' } });
      expect(r.status, op).toBe(404);
    }
    expect(await outbox(other)).toEqual([]);
    expect((await replyRow(theirs.id)).status).toBe('queued');
    expect(await trail(other, theirs.id)).toHaveLength(1); // only its reply.queued
  });
});

describe('approve and send', () => {
  it('sends exactly once with the person as approver: Decision Trail, reply.approved and reply.sent, a confirmation', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t, 'Rita Reviewer');
    const r = await queuedDraft(t, 'Tuesday works, talk then.', { from_email: 'dana@prospect.io' });
    const shown = await page(env, `/desk/replies/${r.id}`, { cookie: desk.cookie });
    expect(shown.html).toContain('Approve and send <span class="as">as Rita Reviewer</span>');
    expect(shown.html).toMatch(/<label for="draft-body">Reply to send<\/label><textarea id="draft-body" name="body"[^>]*>\nTuesday works, talk then.<\/textarea>/);

    const done = await act(env, desk, r.id, 'approve');
    expect(done.status, done.html).toBe(303);
    expect(done.location).toBe(`/desk/replies?done=approved&reply=${r.id}`);
    const confirmed = await page(env, done.location!, { cookie: desk.cookie });
    expect(confirmed.html).toMatch(/<p class="status" role="status">Approved and sent\./);
    expect(queueIdsOf(confirmed.html)).toEqual([]);

    expect(await outbox(t)).toEqual([expect.objectContaining({ reply_id: r.id, to_email: 'dana@prospect.io', body: 'Tuesday works, talk then.' })]);
    const approved = (await trail(t, r.id)).find((d) => d.action === 'reply.approved');
    expect(approved).toMatchObject({ actor: 'Rita Reviewer', detail: { approver: 'Rita Reviewer', key_id: `desk_user:${desk.userId}`, key_name: 'Rita Reviewer (desk)' } });
    const kinds = (await eventsOf(env, t.org.id, r.id)).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'reply.approved')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'reply.sent')).toHaveLength(1);
    expect((await eventsOf(env, t.org.id, r.id)).find((e) => e.kind === 'reply.sent')!.data).toMatchObject({ approver: 'Rita Reviewer' });
  });

  it('a second tab approving the same draft gets an "Already sent" page with the time, and nothing more goes out', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const r = await queuedDraft(t);
    const tab2 = await page(env, `/desk/replies/${r.id}`, { cookie: desk.cookie });
    expect((await act(env, desk, r.id, 'approve')).status).toBe(303);
    const sentAt = (await replyRow(r.id)).sentAt!.toISOString().slice(0, 16).replace('T', ' ');
    const again = await page(env, `/desk/replies/${r.id}/approve`, { cookie: desk.cookie, form: { _csrf: /name="_csrf" value="([^"]+)"/.exec(tab2.html)![1], draft_sha: draftShaOf(tab2.html) } });
    expect(again.status).toBe(409);
    expect(again.html).toContain('<h1 id="problem-title">Already sent</h1>');
    expect(again.html).toContain(`already sent at ${sentAt} UTC`);
    expect(await outbox(t)).toHaveLength(1);
    // The verb recorded the blocked second approval, as it does through the API.
    expect((await trail(t, r.id)).find((d) => d.action === 'send.blocked')).toMatchObject({ detail: { code: 'already_sent' } });
    // The reply's own page now says it went out, with no forms.
    const after = await page(env, `/desk/replies/${r.id}`, { cookie: desk.cookie });
    expect(after.html).toContain(`This reply was already sent at ${sentAt} UTC.`);
    expect(after.html).not.toContain('/approve"');
  });

  it('refuses when the draft changed after the page was opened (a key replaced it): nothing is sent', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const key = await keyAt(t, 1);
    const r = await queuedDraft(t, 'v1', {}, key);
    const shown = await page(env, `/desk/replies/${r.id}`, { cookie: desk.cookie });
    expect((await t.call('POST', `/v1/replies/${r.id}/send`, { key, body: { body: 'v2 written meanwhile' } })).status).toBe(202);
    const res = await page(env, `/desk/replies/${r.id}/approve`, { cookie: desk.cookie, form: { _csrf: /name="_csrf" value="([^"]+)"/.exec(shown.html)![1], draft_sha: draftShaOf(shown.html) } });
    expect(res.status).toBe(409);
    expect(res.html).toContain('The draft was changed after you opened it');
    expect(await outbox(t)).toEqual([]);
    expect((await draftRow(r.id)).body).toBe('v2 written meanwhile');
  });

  it('a draft rejected in another tab: approving is a 409 "No draft waiting" page', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const r = await queuedDraft(t);
    const tab2 = await page(env, `/desk/replies/${r.id}`, { cookie: desk.cookie });
    expect((await act(env, desk, r.id, 'reject', { reason: 'wrong tone' })).status).toBe(303);
    const res = await page(env, `/desk/replies/${r.id}/approve`, { cookie: desk.cookie, form: { _csrf: /name="_csrf" value="([^"]+)"/.exec(tab2.html)![1], draft_sha: draftShaOf(tab2.html) } });
    expect(res.status).toBe(409);
    expect(res.html).toContain('No draft waiting');
    expect(await outbox(t)).toEqual([]);
  });

  it('the lead cooldown is a 429 page that says when to retry; the draft stays', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const first = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    const second = await queuedDraft(t, 'About HubSpot: yes.', { from_email: 'kim@prospect.io' });
    expect((await t.call('POST', `/v1/replies/${first.id}/send`, { key: await keyAt(t, 2), body: { body: 'Sent first' } })).status).toBe(200);
    const res = await act(env, desk, second.id, 'approve');
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res.html).toContain('Contacted recently');
    expect(res.html).toMatch(/try again in 1[45] minutes/);
    expect(await draftRow(second.id)).toBeTruthy();
    expect(await outbox(t)).toHaveLength(1);
  });

  it.skipIf(TIER === 'integration')('the cooldown page says the time left, not the whole 15 minutes (the in-process limits follow the test clock)', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const first = (await t.reply({ from_email: 'lou@prospect.io' })).reply;
    const second = await queuedDraft(t, 'About Pipedrive: yes.', { from_email: 'lou@prospect.io' });
    expect((await t.call('POST', `/v1/replies/${first.id}/send`, { key: await keyAt(t, 2), body: { body: 'Sent first' } })).status).toBe(200);
    env.clock.advance(11 * 60_000);
    const res = await act(env, desk, second.id, 'approve');
    expect(res.status).toBe(429);
    expect(res.html).toMatch(/try again in 4 minutes/);
    expect(Number(res.headers.get('retry-after'))).toBeLessThanOrEqual(240);
  });
  it('counts the send limit per desk user: the 6th approval in a minute is a 429 page, a colleague may still send', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t, 'Rita Reviewer');
    const colleague = await signInDesk(env, t, 'Sam Second');
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await queuedDraft(t, `Draft ${i}`)).id);
    await freshLimitWindow(env);
    for (const id of ids.slice(0, 5)) expect((await act(env, desk, id, 'approve')).status).toBe(303);
    const sixth = await act(env, desk, ids[5], 'approve');
    expect(sixth.status).toBe(429);
    expect(sixth.headers.get('retry-after')).toBe('60');
    expect(sixth.html).toContain('You may send at most 5 replies a minute from the desk.');
    expect((await act(env, colleague, ids[6], 'approve')).status).toBe(303);
    expect(await outbox(t)).toHaveLength(6);
    expect(await draftRow(ids[5])).toBeTruthy();
  });
});

describe('save edit and send', () => {
  it('sends the edited body, records the edit and learns from it', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t, 'Eddie Editor');
    const r = await queuedDraft(t, 'Thanks! Call on Tuesday?');
    const res = await act(env, desk, r.id, 'edit', { body: 'Thanks, Pat! Does Tuesday 10:00 suit you?' });
    expect(res.status, res.html).toBe(303);
    expect(res.location).toBe(`/desk/replies?done=edited&reply=${r.id}`);
    expect((await outbox(t)).map((m) => m.body)).toEqual(['Thanks, Pat! Does Tuesday 10:00 suit you?']);
    const story = await trail(t, r.id);
    // The test clock stands still: rows of one instant come in no particular order, so the story is read as a set.
    expect(story.map((d) => d.action).sort()).toEqual(['reply.approved', 'reply.draft_replaced', 'reply.queued', 'reply.sent']);
    const replaced = story.find((d) => d.action === 'reply.draft_replaced')!;
    // The person is the actor in the detail too; the draft stays with the key that queued it (drafts.key_id is a key).
    expect(replaced).toMatchObject({ actor: 'Eddie Editor (desk)', detail: { edited: true, edit_distance: expect.any(Number), key_id: `desk_user:${desk.userId}` } });
    expect(replaced.detail.edit_distance).toBeGreaterThan(0);
    expect(story.find((d) => d.action === 'reply.sent')!.detail).toMatchObject({ learned: true, approver: 'Eddie Editor' });
  });

  it('an unchanged text is a plain approval (no edit recorded)', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const r = await queuedDraft(t, 'Same text');
    const res = await act(env, desk, r.id, 'edit', { body: 'Same text' });
    expect(res.location).toBe(`/desk/replies?done=approved&reply=${r.id}`);
    expect((await trail(t, r.id)).map((d) => d.action).sort()).toEqual(['reply.approved', 'reply.queued', 'reply.sent']);
  });

  it('refused by the cooldown: the edit is kept, the page says it was saved but not sent and why', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const first = (await t.reply({ from_email: 'kim@prospect.io' })).reply;
    const second = await queuedDraft(t, 'original', { from_email: 'kim@prospect.io' });
    expect((await t.call('POST', `/v1/replies/${first.id}/send`, { key: await keyAt(t, 2), body: { body: 'Sent first' } })).status).toBe(200);
    const res = await act(env, desk, second.id, 'edit', { body: 'my better text' });
    expect(res.status).toBe(429);
    expect(res.html).toContain('<div class="alert" role="alert"><h2>Your edit was saved but not sent</h2>');
    expect(res.html).toContain('This lead was contacted less than 15 minutes ago');
    expect(res.html).toContain('>\nmy better text</textarea>');
    expect((await draftRow(second.id)).body).toBe('my better text');
    expect(await outbox(t)).toHaveLength(1);
  });

  it('an empty text is a 400 page and changes nothing', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const r = await queuedDraft(t, 'keep me');
    const res = await act(env, desk, r.id, 'edit', { body: '   ' });
    expect(res.status).toBe(400);
    expect(res.html).toContain('The reply is empty');
    expect((await draftRow(r.id)).body).toBe('keep me');
  });
});

describe('reject and skip', () => {
  it('reject needs a reason (400, nothing done), then removes the draft with the reason and the approver', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t, 'Rita Reviewer');
    const r = await queuedDraft(t);
    const empty = await act(env, desk, r.id, 'reject', { reason: '  ' });
    expect(empty.status).toBe(400);
    expect(empty.html).toContain('A rejection needs a reason');
    expect(await draftRow(r.id)).toBeTruthy();
    const res = await act(env, desk, r.id, 'reject', { reason: 'too pushy' });
    expect(res.status).toBe(303);
    expect(res.location).toBe(`/desk/replies?done=rejected&reply=${r.id}`);
    expect(await draftRow(r.id)).toBeUndefined();
    expect((await replyRow(r.id)).status).toBe('unanswered');
    expect((await trail(t, r.id)).find((d) => d.action === 'reply.rejected')).toMatchObject({ actor: 'Rita Reviewer', detail: { reason: 'too pushy', approver: 'Rita Reviewer' } });
    expect(await outbox(t)).toEqual([]);
  });

  it('skip rejects the draft, then skips the reply: skipped, no draft, both decisions recorded', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t, 'Rita Reviewer');
    const r = await queuedDraft(t);
    const res = await act(env, desk, r.id, 'skip', { reason: 'out of office reply' });
    expect(res.status, res.html).toBe(303);
    expect(res.location).toBe(`/desk/replies?done=skipped&reply=${r.id}`);
    expect((await replyRow(r.id)).status).toBe('skipped');
    expect(await draftRow(r.id)).toBeUndefined();
    const story = (await trail(t, r.id)).map((d) => [d.action, d.detail.reason]);
    expect(story.sort()).toEqual([
      ['reply.queued', 'review_required_at_autonomy_level_1'],
      ['reply.rejected', 'skipped at the review desk: out of office reply'],
      ['reply.skipped', 'out of office reply'],
    ]);
    const again = await act(env, desk, r.id, 'skip');
    expect(again.status).toBe(409);
    expect(again.html).toContain('Already skipped');
    expect(await outbox(t)).toEqual([]);
  });

  it('a reply left unanswered (its draft rejected) can still be skipped from its page, without a reason', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const r = await queuedDraft(t);
    await act(env, desk, r.id, 'reject', { reason: 'no' });
    const shown = await page(env, `/desk/replies/${r.id}`, { cookie: desk.cookie });
    expect(shown.html).toContain('No draft waits for review for this reply.');
    expect(shown.html).not.toContain('/approve"');
    expect((await act(env, desk, r.id, 'skip')).status).toBe(303);
    expect((await trail(t, r.id)).find((d) => d.action === 'reply.skipped')).toMatchObject({ detail: { reason: 'skipped at the review desk' } });
  });
});

describe('security', () => {
  it('a form without the CSRF token is a 403 page and nothing is done', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const r = await queuedDraft(t);
    const shown = await page(env, `/desk/replies/${r.id}`, { cookie: desk.cookie });
    for (const op of ['approve', 'edit', 'reject', 'skip']) {
      const res = await page(env, `/desk/replies/${r.id}/${op}`, { cookie: desk.cookie, form: { draft_sha: draftShaOf(shown.html), body: 'forged', reason: 'forged' } });
      expect(res.status, op).toBe(403);
      expect(res.html).toContain('Form refused');
    }
    // From another site, even with the token.
    const csrf = /name="_csrf" value="([^"]+)"/.exec(shown.html)![1];
    const cross = await page(env, `/desk/replies/${r.id}/approve`, { cookie: desk.cookie, origin: 'https://evil.example', form: { _csrf: csrf, draft_sha: draftShaOf(shown.html) } });
    expect(cross.status).toBe(403);
    expect(await outbox(t)).toEqual([]);
    expect((await draftRow(r.id)).body).toBe('Happy to set up a call: does Tuesday 10:00 work?');
    expect((await replyRow(r.id)).status).toBe('queued');
  });

  it('without a session every desk page is 401', async () => {
    const t = await newTenant(env);
    const r = await queuedDraft(t);
    for (const path of ['/desk/replies', `/desk/replies/${r.id}`]) expect((await page(env, path)).status, path).toBe(401);
  });

  it("escapes a hostile reply's text, subject and name, and a hostile draft, on the queue and the reply page", async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    const r = await queuedDraft(t, `</textarea><script>alert(3)</script>`, { body: `Hi ${hostile}`, subject: `Re: ${hostile}`, from_name: `Mallory ${hostile}` });
    for (const path of ['/desk/replies', `/desk/replies/${r.id}`, '/desk/']) {
      const res = await page(env, path, { cookie: desk.cookie });
      expect(res.status, path).toBe(200);
      expect(res.html, path).not.toContain('<script>');
      expect(res.html, path).not.toContain('<img src=x');
      expect(res.html, path).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    }
    const shown = await page(env, `/desk/replies/${r.id}`, { cookie: desk.cookie });
    expect(shown.html).toContain('&lt;/textarea&gt;&lt;script&gt;alert(3)');
    expect(shown.headers.get('content-security-policy')).toContain("script-src 'none'");
  });
});

describe('hardening (code review)', () => {
  it('a NUL in a form field and an unreadable multipart body are 400 pages; nothing changes', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const r = await queuedDraft(t, 'keep me');
    const nul = await act(env, desk, r.id, 'edit', { body: 'hello\u0000world' });
    expect(nul.status, nul.html).toBe(400);
    expect(nul.html).toContain('NUL character');
    const reject = await act(env, desk, r.id, 'reject', { reason: 'a\u0000b' });
    expect(reject.status).toBe(400);
    const broken = await env.app.request(`/desk/replies/${r.id}/reject`, {
      method: 'POST',
      headers: { cookie: desk.cookie, origin: 'http://localhost', 'content-type': 'multipart/form-data; boundary=xyz' },
      body: 'garbage',
    });
    expect(broken.status).toBe(400);
    expect(await broken.text()).toContain('could not be read');
    expect((await draftRow(r.id)).body).toBe('keep me');
    expect((await replyRow(r.id)).status).toBe('queued');
  });

  it('a long edit in a non-Latin script (URL-encoded far past 50 KB) is saved and sent', async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const r = await queuedDraft(t, 'short');
    const long = '返信ありがとうございます。'.repeat(700); // 9,100 characters, ~82 KB URL-encoded
    const res = await act(env, desk, r.id, 'edit', { body: long });
    expect(res.status, res.html.slice(0, 300)).toBe(303);
    expect((await outbox(t)).map((m) => m.body)).toEqual([long]);
  });

  it("a person's edit keeps the reason the key's draft was queued for", async () => {
    const t = await newTenant(env);
    const desk = await signInDesk(env, t);
    const first = (await t.reply({ from_email: 'lee@prospect.io' })).reply;
    const second = await queuedDraft(t, 'original', { from_email: 'lee@prospect.io' }, await keyAt(t, 0));
    expect((await draftRow(second.id)).reason).toBe('no_active_autonomy_grant');
    expect((await t.call('POST', `/v1/replies/${first.id}/send`, { key: await keyAt(t, 2), body: { body: 'Sent first' } })).status).toBe(200);
    // The cooldown refuses the send: the edit stays queued, with the key's reason, not the person's level.
    expect((await act(env, desk, second.id, 'edit', { body: 'my better text' })).status).toBe(429);
    expect(await draftRow(second.id)).toMatchObject({ body: 'my better text', reason: 'no_active_autonomy_grant' });
  });

  it('under the row lock: an approval of a text that is no longer the draft, and an edit of a draft that is gone, do nothing', async () => {
    const t = await newTenant(env);
    const r = await queuedDraft(t, 'the text the reviewer read');
    const person = { orgId: t.org.id, clientId: null, keyId: 'desk_user:test', keyName: 'Pat (desk)', autonomyLevel: 1 };
    await expect(approveDraft({ deps: env.services, actor: person, replyId: r.id, approver: 'Pat', expectedBody: 'another text' })).rejects.toMatchObject({ code: 'conflict' });
    expect(await outbox(t)).toHaveLength(0);
    await expect(sendReply({ deps: env.services, actor: person, replyId: r.id, input: { body: 'edit' }, replacePending: { body: 'stale' } })).rejects.toMatchObject({ code: 'conflict' });
    expect((await draftRow(r.id)).body).toBe('the text the reviewer read');
    const unanswered = (await t.reply({})).reply;
    await expect(sendReply({ deps: env.services, actor: person, replyId: unanswered.id, input: { body: 'edit' }, replacePending: { body: 'x' } })).rejects.toMatchObject({ code: 'no_pending_draft' });
    expect(await draftRow(unanswered.id)).toBeUndefined();
    expect((await replyRow(unanswered.id)).status).toBe('unanswered');
  });

  it("a portal link posted at the desk is unknown there and is not used up", async () => {
    const t = await newTenant(env, { features: { crm: true } });
    const { sign_in_url } = await invitePortalUser(t);
    const token = new URL(sign_in_url).pathname.split('/').pop()!;
    const atDesk = await page(env, `/desk/sign-in/${token}`, { form: {} });
    expect(atDesk.status).toBe(400);
    expect(atDesk.setCookie).toBeNull();
    expect(await signIn(env, sign_in_url)).toMatch(/^ris_portal=/);
  });
});
