// Shared by the portal tests: a browser of one (its cookie jar of one cookie), form posts with the page's Origin
// and CSRF token, and sign-in through an admin-issued link.
import { expect, inject } from 'vitest';
import { recordSecret } from '../helpers/secret_scan';
import type { TestEnv } from '../helpers/harness';
import type { Tenant } from '../helpers/tenant';

export const ORIGIN = 'http://localhost';

export type Page = { status: number; headers: Headers; html: string; location: string | null; setCookie: string | null };

export async function page(env: TestEnv, path: string, opts: { method?: string; cookie?: string; form?: Record<string, string>; origin?: string | null; url?: string } = {}): Promise<Page> {
  const headers: Record<string, string> = {};
  if (opts.cookie) headers.cookie = opts.cookie;
  let body: string | undefined;
  if (opts.form) {
    headers['content-type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(opts.form).toString();
  }
  const origin = opts.origin === undefined ? ORIGIN : opts.origin;
  if (origin) headers.origin = origin;
  const res = await env.app.request(opts.url ?? path, { method: opts.method ?? (opts.form ? 'POST' : 'GET'), headers, body, redirect: 'manual' });
  return { status: res.status, headers: res.headers, html: await res.text(), location: res.headers.get('location'), setCookie: res.headers.get('set-cookie') };
}

/** The `name=value` pair of a Set-Cookie header, ready for a Cookie header. */
export const cookiePair = (setCookie: string | null) => (setCookie ? setCookie.split(';')[0] : '');

export async function invitePortalUser(t: Tenant, email = `person${Math.random().toString(36).slice(2)}@client.example`, name = 'Casey Client', clientId = t.client.id) {
  const r = await t.admin('POST', `/admin/v1/clients/${clientId}/portal-users`, { email, name });
  expect(r.status, r.text).toBe(201);
  // The link's token is a credential: the run's log scan fails if it ever reaches a log.
  recordSecret(inject('logDir'), new URL(r.json.sign_in_url).pathname.split('/').pop()!);
  return r.json as { user: { id: string; email: string; kind: string; client_id: string }; sign_in_url: string };
}

/** Opens the link, presses the button; returns the session cookie pair. */
export async function signIn(env: TestEnv, signInUrl: string): Promise<string> {
  const path = new URL(signInUrl).pathname;
  const landing = await page(env, path);
  expect(landing.status, landing.html).toBe(200);
  const done = await page(env, path, { form: {} });
  expect(done.status, done.html).toBe(303);
  return cookiePair(done.setCookie);
}

/** The CSRF token of a page's forms (the sign-out form is on every signed-in page). */
export const csrfOf = (html: string) => /name="_csrf" value="([^"]+)"/.exec(html)?.[1] ?? '';

export const leadIdsOf = (html: string) => [...html.matchAll(/data-lead-id="([^"]+)"/g)].map((m) => m[1]);
