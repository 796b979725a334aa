// Shared by the review desk tests: a signed-in desk user, a draft queued by an autonomy-level-1 key through the
// API, and the desk's forms posted the way its pages post them (the page's CSRF token and draft fingerprint).
import { expect, inject } from 'vitest';
import { recordSecret } from '../helpers/secret_scan';
import type { TestEnv } from '../helpers/harness';
import type { Tenant } from '../helpers/tenant';
import { csrfOf, page, signIn, type Page } from './portal_helpers';
import { keyAt } from './send_helpers';

export type Desk = { cookie: string; name: string; userId: string };

export async function signInDesk(env: TestEnv, t: Tenant, name = 'Rita Reviewer'): Promise<Desk> {
  const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/desk-users`, { email: `rev${Math.random().toString(36).slice(2)}@agency.example`, name });
  expect(r.status, r.text).toBe(201);
  recordSecret(inject('logDir'), new URL(r.json.sign_in_url).pathname.split('/').pop()!);
  return { cookie: await signIn(env, r.json.sign_in_url), name, userId: r.json.user.id };
}

/** A prospect's reply answered by an autonomy-level-1 key: 202, the draft waits for review. */
export async function queuedDraft(t: Tenant, body = 'Happy to set up a call: does Tuesday 10:00 work?', reply: Parameters<Tenant['reply']>[0] = {}, key?: string) {
  const { reply: r } = await t.reply({ subject: 'Re: our offer', ...reply });
  const sent = await t.call('POST', `/v1/replies/${r.id}/send`, { key: key ?? (await keyAt(t, 1)), body: { body } });
  expect(sent.status, sent.text).toBe(202);
  return r;
}

export const draftShaOf = (html: string) => /name="draft_sha" value="([0-9a-f]*)"/.exec(html)?.[1] ?? '';
export const queueIdsOf = (html: string) => [...html.matchAll(/data-reply-id="([^"]+)"/g)].map((m) => m[1]);

/** Opens the reply's page and posts one of its forms with what the page holds; `fields` override or add. */
export async function act(env: TestEnv, desk: Desk, replyId: string, op: 'approve' | 'edit' | 'reject' | 'skip', fields: Record<string, string> = {}): Promise<Page> {
  const shown = await page(env, `/desk/replies/${replyId}`, { cookie: desk.cookie });
  expect(shown.status, shown.html).toBe(200);
  return page(env, `/desk/replies/${replyId}/${op}`, { cookie: desk.cookie, form: { _csrf: csrfOf(shown.html), draft_sha: draftShaOf(shown.html), ...fields } });
}
