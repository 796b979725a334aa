// Refusals the platform raises before a page runs (lib/http/platform.ts): under the portal's and the desk's paths
// they are the faces' HTML problem page with the API's status, not its JSON envelope; under /v1 they stay JSON.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEB_PAGE_CSP } from '../../lib/web/face';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { crmTenant, type CrmTenant } from './crm_helpers';
import { csrfOf, invitePortalUser, ORIGIN, page, signIn } from './portal_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

async function signedIn() {
  const t = await crmTenant(env);
  const { leadId } = await t.lead({ classification: 'hot' });
  const cookie = await signIn(env, (await invitePortalUser(t)).sign_in_url);
  const csrf = csrfOf((await page(env, `/portal/leads/${leadId}`, { cookie })).html);
  return { t, leadId, cookie, csrf };
}

/** 60 KB over the wire, without a Content-Length: the limit counts the streamed bytes. */
const streamed = (text: string) =>
  new ReadableStream({
    start(ctrl) {
      const bytes = new TextEncoder().encode(text);
      for (let i = 0; i < bytes.length; i += 4096) ctrl.enqueue(bytes.slice(i, i + 4096));
      ctrl.close();
    },
  });

/** A problem page of the face: HTML with the status, the page CSP, one heading, and no envelope or stack. */
async function expectProblemPage(res: Response, status: number, heading: string, faceName = 'Client portal') {
  const html = await res.text();
  expect(res.status, html).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^text\/html/);
  expect(res.headers.get('content-security-policy')).toBe(WEB_PAGE_CSP);
  expect(html).toMatch(/^<!DOCTYPE html>|^<html/i);
  expect(html).toContain(`<h1 id="problem-title">${heading}</h1>`);
  expect(html).toContain(`<title>${heading} · ${faceName}</title>`);
  expect(html).not.toContain('"error"');
  expect(html).not.toMatch(/payload_too_large|validation_error|ApiError|\bat .+:\d+:\d+/);
  return html;
}

async function expectEnvelope(res: Response, status: number, code: string) {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
  expect((await res.json()).error.code).toBe(code);
}

const crmHeaders = (t: CrmTenant, extra: Record<string, string> = {}) => ({ 'x-service-key': t.crmKey, 'x-forwarded-for': t.ip, ...extra });

describe('refusals before routing under a face are pages', () => {
  it('an oversized form post to a lead is a 413 page and saves nothing, with or without Content-Length', async () => {
    const { t, leadId, cookie, csrf } = await signedIn();
    // Form posts may carry 512 KB (lib/http/body_limits.ts: a long reply in a non-Latin script, URL-encoded).
    const body = new URLSearchParams({ _csrf: csrf, if_updated_at: '', phase: 'won', note: 'x'.repeat(520 * 1024) }).toString();
    const headers = { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' };
    const declared = await env.app.request(`/portal/leads/${leadId}`, { method: 'POST', headers: { ...headers, 'content-length': String(body.length) }, body });
    await expectProblemPage(declared, 413, 'Too much to send');
    const stream = await env.app.request(`/portal/leads/${leadId}`, { method: 'POST', headers, body: streamed(body), duplex: 'half' } as RequestInit);
    await expectProblemPage(stream, 413, 'Too much to send');
    const lead = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    expect(lead.phase).not.toBe('won');
    expect(lead.notes).toEqual([]);
  });

  it('a NUL in the URL is a 400 page, signed in or not, on the portal and the desk', async () => {
    const { cookie } = await signedIn();
    await expectProblemPage(await env.app.request('/portal/leads?classification=hot%00', { headers: { cookie } }), 400, 'Cannot read this request');
    await expectProblemPage(await env.app.request('/portal/%00'), 400, 'Cannot read this request');
    await expectProblemPage(await env.app.request('/desk/x%00y'), 400, 'Cannot read this request', 'Review desk');
  });

  it('a form body that is not UTF-8 is a 400 page and signs nobody out', async () => {
    const { leadId, cookie, csrf } = await signedIn();
    const bytes = new Uint8Array([...new TextEncoder().encode(`_csrf=${csrf}&x=`), 0xff, 0xfe]);
    const res = await env.app.request('/portal/sign-out', { method: 'POST', headers: { cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' }, body: bytes });
    await expectProblemPage(res, 400, 'Cannot read this request');
    expect((await page(env, `/portal/leads/${leadId}`, { cookie })).status).toBe(200);
  });

  it('the same refusals under /v1 keep the JSON envelope', async () => {
    const { t, leadId } = await signedIn();
    const big = JSON.stringify({ phase: 'won', next_action: { date: '2026-12-24', note: 'x'.repeat(60 * 1024) } });
    const declared = await env.app.request(`/v1/crm/leads/${leadId}`, { method: 'PATCH', headers: crmHeaders(t, { 'content-type': 'application/json', 'content-length': String(big.length) }), body: big });
    await expectEnvelope(declared, 413, 'payload_too_large');
    const stream = await env.app.request(`/v1/crm/leads/${leadId}`, { method: 'PATCH', headers: crmHeaders(t, { 'content-type': 'application/json' }), body: streamed(big), duplex: 'half' } as RequestInit);
    await expectEnvelope(stream, 413, 'payload_too_large');
    await expectEnvelope(await env.app.request('/v1/crm/leads?phase=new%00', { headers: crmHeaders(t) }), 400, 'validation_error');
    // A path that merely starts like the portal's is not the portal.
    await expectEnvelope(await env.app.request('/portalx/%00'), 400, 'validation_error');
  });
});
