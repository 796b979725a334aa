// The client portal (issue 19): link sign-in, the session cookie, the lead list equal to the CRM API's list, the
// lead page at the CRM thread_url, tenant isolation, CSRF, escaping and the pages' CSP.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { recordSecret } from '../helpers/secret_scan';
import { freshLimitWindow, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { crmTenant, listAll } from './crm_helpers';
import { cookiePair, csrfOf, invitePortalUser, leadIdsOf, page, signIn } from './portal_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('admin: portal and desk users', () => {
  it('creates a portal user with a link, and a new link (same user) on each call', async () => {
    const t = await crmTenant(env);
    const first = await invitePortalUser(t, 'Casey@Client.example', 'Casey');
    expect(first.user).toMatchObject({ kind: 'portal', email: 'casey@client.example', name: 'Casey', client_id: t.client.id, org_id: t.org.id });
    expect(first.sign_in_url.startsWith(`${env.config.portalUrl}/sign-in/`)).toBe(true);
    const second = await invitePortalUser(t, 'casey@client.example', 'Casey C.');
    expect(second.user.id).toBe(first.user.id);
    expect(second.user).toMatchObject({ name: 'Casey C.' });
    expect(second.sign_in_url).not.toBe(first.sign_in_url);
    // Both links work: a second mail does not break the first.
    expect(await signIn(env, first.sign_in_url)).toMatch(/^ris_portal=/);
    expect(await signIn(env, second.sign_in_url)).toMatch(/^ris_portal=/);
  });

  it('refuses bad input and unknown clients; creates desk users with a /desk link', async () => {
    const t = await crmTenant(env);
    expect((await t.admin('POST', `/admin/v1/clients/${t.client.id}/portal-users`, { email: 'not an address', name: 'X' })).status).toBe(400);
    expect((await t.admin('POST', `/admin/v1/clients/${t.client.id}/portal-users`, { email: 'a@b.example' })).status).toBe(400);
    expect((await t.admin('POST', `/admin/v1/clients/00000000-0000-4000-8000-000000000000/portal-users`, { email: 'a@b.example', name: 'A' })).status).toBe(404);
    expect((await t.admin('POST', `/admin/v1/clients/${t.client.id}/portal-users`, { email: 'a@b.example', name: 'A' }, 'wrong-token-wrong-token-wrong-token')).status).toBe(401);
    const desk = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/desk-users`, { email: 'rev@agency.example', name: 'Rita Reviewer' });
    expect(desk.status, desk.text).toBe(201);
    expect(desk.json.user).toMatchObject({ kind: 'desk', org_id: t.org.id, client_id: null });
    recordSecret(inject('logDir'), desk.json.sign_in_url.split('/').pop());
    expect(desk.json.sign_in_url.startsWith(`${env.config.publicBaseUrl}/desk/sign-in/`)).toBe(true);
    const cookie = await signIn(env, desk.json.sign_in_url);
    expect(cookie).toMatch(/^ris_desk=/);
    const home = await page(env, '/desk', { cookie });
    expect(home.status).toBe(200);
    expect(home.html).toContain('Rita Reviewer');
    // A desk session is no portal session.
    expect((await page(env, '/portal/leads', { cookie: cookie.replace('ris_desk', 'ris_portal') })).status).toBe(401);
  });
});

describe('sign-in', () => {
  it('GET shows a button and signs nobody in; POST sets a HttpOnly SameSite=Lax cookie on the portal path', async () => {
    const t = await crmTenant(env);
    const { sign_in_url } = await invitePortalUser(t);
    const path = new URL(sign_in_url).pathname;
    const landing = await page(env, path);
    expect(landing.status).toBe(200);
    expect(landing.setCookie).toBeNull();
    expect(landing.html).toMatch(/<form method="post" action="\/portal\/sign-in\/[A-Za-z0-9]+"/);
    const done = await page(env, path, { form: {} });
    expect(done.status).toBe(303);
    expect(done.location).toBe('/portal/leads');
    const attrs = done.setCookie!.split(';').map((s) => s.trim().toLowerCase());
    expect(attrs).toContain('httponly');
    expect(attrs).toContain('samesite=lax');
    expect(attrs).toContain('path=/portal');
    expect(attrs).not.toContain('secure'); // loopback
    // Outside loopback the cookie is Secure.
    const other = await invitePortalUser(t);
    const secure = await page(env, '', { url: `https://portal.test${new URL(other.sign_in_url).pathname}`, form: {}, origin: 'https://portal.test' });
    expect(secure.status, secure.html).toBe(303);
    expect(secure.setCookie!.toLowerCase()).toContain('; secure');
  });

  it('an https PORTAL_URL makes the cookie Secure even when a proxy forwards to loopback without the Host header', async () => {
    const https = await startTestEnv({ PORTAL_URL: 'https://portal.example.com/portal' });
    try {
      const t = await crmTenant(https);
      const link = await invitePortalUser(t);
      expect(link.sign_in_url.startsWith('https://portal.example.com/portal/sign-in/')).toBe(true);
      const done = await page(https, new URL(link.sign_in_url).pathname, { url: `http://127.0.0.1${new URL(link.sign_in_url).pathname}`, form: {}, origin: 'https://portal.example.com' });
      expect(done.status, done.html).toBe(303);
      expect(done.setCookie!.toLowerCase()).toContain('; secure');
    } finally {
      await https.close();
    }
  });

  it('a used link and an expired link are refused with a page and no session', async () => {
    const t = await crmTenant(env);
    const used = await invitePortalUser(t);
    await signIn(env, used.sign_in_url);
    const usedPath = new URL(used.sign_in_url).pathname;
    for (const r of [await page(env, usedPath), await page(env, usedPath, { form: {} })]) {
      expect(r.status).toBe(410);
      expect(r.html).toContain('already used');
      expect(r.setCookie).toBeNull();
    }
    const expiring = await invitePortalUser(t);
    env.clock.advance(15 * 60_000 + 1_000);
    const expPath = new URL(expiring.sign_in_url).pathname;
    for (const r of [await page(env, expPath), await page(env, expPath, { form: {} })]) {
      expect(r.status).toBe(410);
      expect(r.html).toContain('expired');
      expect(r.setCookie).toBeNull();
    }
    const bogus = await page(env, '/portal/sign-in/not-a-token', { form: {} });
    expect(bogus.status).toBe(400);
  });

  it('each sign-in makes a new session id; signing in again revokes the old one', async () => {
    const t = await crmTenant(env);
    const a = await signIn(env, (await invitePortalUser(t, 'same@client.example')).sign_in_url);
    const second = await invitePortalUser(t, 'same@client.example');
    const path = new URL(second.sign_in_url).pathname;
    const done = await page(env, path, { form: {}, cookie: a });
    const b = cookiePair(done.setCookie);
    expect(b).toMatch(/^ris_portal=/);
    expect(b).not.toBe(a);
    expect((await page(env, '/portal/leads', { cookie: a })).status).toBe(401);
    expect((await page(env, '/portal/leads', { cookie: b })).status).toBe(200);
  });

  it('refuses a sign-in post from another origin', async () => {
    const t = await crmTenant(env);
    const { sign_in_url } = await invitePortalUser(t);
    const r = await page(env, new URL(sign_in_url).pathname, { form: {}, origin: 'https://evil.example' });
    expect(r.status).toBe(403);
    expect(r.setCookie).toBeNull();
    // The link was not used by the refused post.
    expect(await signIn(env, sign_in_url)).toMatch(/^ris_portal=/);
  });
});

describe('the pages', () => {
  it('the lead list is exactly the CRM API list of the client, newest activity first, with filters', async () => {
    const t = await crmTenant(env);
    const hot = await t.lead({ classification: 'hot' });
    env.clock.advance(1_000);
    const warm = await t.lead({ classification: 'warm' });
    env.clock.advance(1_000);
    const cold = await t.lead({ classification: 'cold' });
    env.clock.advance(1_000);
    const hidden = await t.lead({ classification: 'not_interested' });
    const spam = await t.lead({ classification: 'spam' });
    const unclassified = await t.lead({ classification: null });
    const cookie = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    const list = await page(env, '/portal/leads', { cookie });
    expect(list.status).toBe(200);
    const shown = leadIdsOf(list.html);
    const crm = (await listAll(t)).leads.map((l) => l.id);
    expect([...shown].sort()).toEqual([...crm].sort());
    expect(shown).toEqual([cold.leadId, warm.leadId, hot.leadId]);
    for (const id of [hidden.leadId, spam.leadId, unclassified.leadId]) expect(list.html).not.toContain(id);
    // Activity is the conversation, not only replies: answering the oldest lead moves it to the top.
    env.clock.advance(1_000);
    const sender = await t.addKey({ name: 'agent', autonomy_level: 2 });
    expect((await t.call('POST', `/v1/replies/${hot.replyId}/send`, { key: sender, body: { body: 'Tuesday 10:00 works.' } })).status).toBe(200);
    expect(leadIdsOf((await page(env, '/portal/leads', { cookie })).html)).toEqual([hot.leadId, cold.leadId, warm.leadId]);

    const filtered = await page(env, '/portal/leads?classification=warm&phase=new', { cookie });
    expect(leadIdsOf(filtered.html)).toEqual([warm.leadId]);
    expect(filtered.html).toMatch(/<option value="warm" selected/);
    const none = await page(env, '/portal/leads?phase=won', { cookie });
    expect(leadIdsOf(none.html)).toEqual([]);
    const bad = await page(env, '/portal/leads?classification=%3Cb%3E', { cookie });
    expect(bad.status).toBe(400);
    expect(bad.html).toContain('Classification must be one of');
    expect((await page(env, '/portal/leads?page=0', { cookie })).status).toBe(400);
    // A portal switch turned on shows the lead on both faces at once.
    expect((await t.admin('PATCH', `/admin/v1/clients/${t.client.id}`, { portal: { show_not_interested: true } })).status).toBe(200);
    expect(leadIdsOf((await page(env, '/portal/leads', { cookie })).html)).toContain(hidden.leadId);
  });

  it('the lead page is at the CRM thread_url with the conversation, CRM fields and trail actors', async () => {
    const t = await crmTenant(env, { crmKeyName: 'HubSpot sync' });
    const { leadId } = await t.lead({ classification: 'hot', body: 'We would like a demo on Tuesday.' });
    const patched = await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'proposal', deal: { value: 12000, currency: 'EUR' }, next_action: { date: '2026-12-01', note: 'Send the proposal' } });
    expect(patched.status, patched.text).toBe(200);
    expect((await t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: 'Budget approved' })).status).toBe(201);
    const threadUrl = new URL(patched.json.lead.thread_url);
    expect(threadUrl.origin + threadUrl.pathname).toBe(`${env.config.portalUrl}/leads/${leadId}`);
    const cookie = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    const r = await page(env, threadUrl.pathname, { cookie });
    expect(r.status, r.html).toBe(200);
    expect(r.html).toContain('We would like a demo on Tuesday.');
    expect(r.html).toContain('proposal');
    expect(r.html).toContain('<dd>€12,000</dd>'); // the deal amount, formatted (Intl.NumberFormat, currency)
    expect(r.html).toContain('Send the proposal');
    expect(r.html).toContain('Budget approved');
    expect(r.html).toContain('crm.lead_updated');
    expect(r.html).toMatch(/<span class="actor">HubSpot sync<\/span>/);
  });

  it("another client's lead, a hidden lead and an unknown id are 404 pages", async () => {
    const t = await crmTenant(env);
    const cookie = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    const otherOrg = await crmTenant(env);
    const foreign = await otherOrg.lead({ classification: 'hot' });
    const clientB = await t.addClient('Client B');
    const campaignB = await t.addCampaign(clientB.id, 'Campaign B');
    const sibling = await t.reply({ campaign_id: campaignB.id, body: 'Sounds good, call me.' });
    const hidden = await t.lead({ classification: 'not_interested' });
    for (const id of [foreign.leadId, sibling.leadId, hidden.leadId, '00000000-0000-4000-8000-000000000000', 'nope']) {
      const r = await page(env, `/portal/leads/${id}`, { cookie });
      expect(r.status, id).toBe(404);
      expect(r.html).toContain('Not found');
    }
    expect((await page(env, '/portal/nothing-here', { cookie })).status).toBe(404);
    expect((await page(env, '/portal/leads/%E0%A4%A', { cookie })).status).toBe(404);
    expect((await page(env, '/portal/sign-in/%E0%A4%A', { form: {} })).status).toBe(400);
    expect((await page(env, '/portal/leads', { cookie, method: 'DELETE' })).status).toBe(405);
  });

  it('without a session nothing is shown: 401 with a sign-in page', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ classification: 'hot', email: 'secret-lead@acme.example' });
    for (const cookie of [undefined, 'ris_portal=forged0123456789forged0123456789', 'ris_portal=<x>']) {
      for (const path of ['/portal/leads', `/portal/leads/${leadId}`]) {
        const r = await page(env, path, { cookie });
        expect(r.status).toBe(401);
        expect(r.html).toContain('sign-in link');
        expect(r.html).not.toContain('secret-lead');
      }
    }
    expect((await page(env, '/portal', {})).status).toBe(303);
  });

  it('sign-out needs the CSRF token and ends the session', async () => {
    const t = await crmTenant(env);
    const cookie = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    const list = await page(env, '/portal/leads', { cookie });
    const token = csrfOf(list.html);
    expect(token).toMatch(/^[A-Za-z0-9]{20,}$/);
    const noToken = await page(env, '/portal/sign-out', { cookie, form: {} });
    expect(noToken.status).toBe(403);
    expect(noToken.html).toContain('Form refused');
    const wrongToken = await page(env, '/portal/sign-out', { cookie, form: { _csrf: 'x'.repeat(token.length) } });
    expect(wrongToken.status).toBe(403);
    const crossSite = await page(env, '/portal/sign-out', { cookie, form: { _csrf: token }, origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    const json = await env.app.request('/portal/sign-out', { method: 'POST', headers: { cookie, origin: 'http://localhost', 'content-type': 'application/json' }, body: JSON.stringify({ _csrf: token }) });
    expect(json.status).toBe(403);
    expect((await page(env, '/portal/leads', { cookie })).status).toBe(200);
    const out = await page(env, '/portal/sign-out', { cookie, form: { _csrf: token } });
    expect(out.status).toBe(200);
    expect(out.html).toContain('signed out');
    expect((await page(env, '/portal/leads', { cookie })).status).toBe(401);
  });

  it('escapes a hostile lead name and sends a strict CSP without inline script', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ classification: 'hot', name: '<script>alert(1)</script>', body: '<img src=x onerror=alert(2)> hello' });
    const cookie = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    for (const path of ['/portal/leads', `/portal/leads/${leadId}`]) {
      const r = await page(env, path, { cookie });
      expect(r.status).toBe(200);
      expect(r.html).not.toContain('<script');
      expect(r.html).not.toContain('<img');
      expect(r.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      const csp = r.headers.get('content-security-policy')!;
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("form-action 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("script-src 'none'");
      expect(csp).not.toContain('unsafe-inline');
      expect(r.headers.get('cache-control')).toBe('no-store');
    }
    const css = await page(env, '/portal/assets/portal.css');
    expect(css.status).toBe(200);
    expect(css.headers.get('content-type')).toContain('text/css');
    // The API keeps its own locked-down policy.
    const api = await t.call('GET', '/v1/me');
    expect(api.headers.get('content-security-policy')).toContain("default-src 'none'");
  });
});

describe('editing a lead from the portal', () => {
  it('writes through the CRM verbs with the person as actor; a stale form is a 409 and writes nothing', async () => {
    const t = await crmTenant(env, { crmKeyName: 'HubSpot sync' });
    const { leadId } = await t.lead({ classification: 'hot' });
    const cookie = await signIn(env, (await invitePortalUser(t, undefined, 'Casey Client')).sign_in_url);
    const before = await page(env, `/portal/leads/${leadId}`, { cookie });
    const csrf = csrfOf(before.html);
    const seen = /name="if_updated_at" value="([^"]*)"/.exec(before.html)![1];
    expect(seen).toBe('');
    const form = { _csrf: csrf, if_updated_at: seen, phase: 'discovery', next_action_date: '2026-12-24', next_action_note: 'Call back', note: 'Met at the fair' };
    const saved = await page(env, `/portal/leads/${leadId}`, { cookie, form });
    expect(saved.status, saved.html).toBe(303);
    expect(saved.location).toBe(`/portal/leads/${leadId}`);
    const lead = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    expect(lead).toMatchObject({ phase: 'discovery', next_action: { date: '2026-12-24', note: 'Call back' } });
    expect(lead.notes.map((n: any) => [n.by, n.text])).toEqual([['Casey Client (portal)', 'Met at the fair']]);
    const after = await page(env, `/portal/leads/${leadId}`, { cookie });
    expect(after.html).toMatch(/<span class="actor">Casey Client \(portal\)<\/span>/);

    // The CRM writes meanwhile; the old form (its if_updated_at) is refused and nothing changes.
    expect((await t.crm('PATCH', `/v1/crm/leads/${leadId}`, { phase: 'proposal' })).status).toBe(200);
    const stale = await page(env, `/portal/leads/${leadId}`, { cookie, form: { ...form, if_updated_at: lead.crm_updated_at, phase: 'won', note: 'lost note' } });
    expect(stale.status).toBe(409);
    expect(stale.html).toContain('nothing was saved');
    const now = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    expect(now.phase).toBe('proposal');
    expect(now.notes).toHaveLength(1);
  });

  it('when the note hits the write limit after the fields were saved, the page says the fields were saved', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ classification: 'hot' });
    const cookie = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    const csrf = csrfOf((await page(env, `/portal/leads/${leadId}`, { cookie })).html);
    await freshLimitWindow(env);
    // 59 field saves (one write each), then a phase with a note: the phase is the 60th write, the note the 61st.
    const seen = async () => (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead.crm_updated_at ?? '';
    for (let i = 0; i < 59; i++) {
      const r = await page(env, `/portal/leads/${leadId}`, { cookie, form: { _csrf: csrf, if_updated_at: await seen(), phase: i % 2 ? 'contacted' : 'discovery' } });
      expect(r.status, r.html).toBe(303);
    }
    // The whole form, as the page posts it: the phase changes, the rest stays.
    const full = async (phase: string, note: string) => ({ _csrf: csrf, if_updated_at: await seen(), phase, next_action_date: '', next_action_note: '', note });
    const res = await page(env, `/portal/leads/${leadId}`, { cookie, form: await full('proposal', 'Sent the deck') });
    expect(res.status).toBe(429);
    expect(res.html).toContain('Your other changes were saved, but the note was not');
    const lead = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead;
    expect(lead.phase).toBe('proposal');
    expect(lead.notes).toEqual([]);
    // A note alone (the fields posted unchanged) that hits the limit says nothing was saved besides. A colleague
    // (the limit is per person, so this holds in the real limiter's minute too) makes 59 writes, then the note.
    const cookie2 = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    const csrf2 = csrfOf((await page(env, `/portal/leads/${leadId}`, { cookie: cookie2 })).html);
    await freshLimitWindow(env);
    for (let i = 0; i < 59; i++) expect((await page(env, `/portal/leads/${leadId}`, { cookie: cookie2, form: { _csrf: csrf2, if_updated_at: await seen(), phase: i % 2 ? 'proposal' : 'negotiation' } })).status).toBe(303);
    const phaseNow = (await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead.phase;
    const noteOnly = await page(env, `/portal/leads/${leadId}`, { cookie: cookie2, form: { ...(await full(phaseNow, 'Just a note')), _csrf: csrf2 } });
    expect(noteOnly.status).toBe(429);
    expect(noteOnly.html).not.toContain('other changes were saved');
  }, 120_000); // the integration tier may wait twice for a fresh limit window (up to 20 s each)

  it('refuses bad input, a missing CSRF token and leads it may not see', async () => {
    const t = await crmTenant(env);
    const { leadId } = await t.lead({ classification: 'hot' });
    const cookie = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    const csrf = csrfOf((await page(env, `/portal/leads/${leadId}`, { cookie })).html);
    const base = { _csrf: csrf, if_updated_at: '' };
    for (const [form, text] of [
      [{ ...base, phase: 'bogus' }, 'Phase must be one of'],
      [{ ...base, next_action_date: '24.12.2026' }, 'must be a date'],
      // Parses, but is no calendar day (the CRM API refuses it too).
      [{ ...base, next_action_date: '2024-02-31' }, 'must be a date'],
      // PostgreSQL stores no NUL: a sentence, never a 500.
      [{ ...base, note: 'x\u0000y' }, 'NUL character'],
      [{ ...base, next_action_note: 'no date' }, 'needs a date'],
      [{ _csrf: csrf, phase: 'won' }, 'reload the page'],
      [{ ...base, note: 'x'.repeat(5_001) }, 'at most 5000'],
    ] as const) {
      const r = await page(env, `/portal/leads/${leadId}`, { cookie, form });
      expect(r.status, text).toBe(400);
      expect(r.html).toContain(text);
    }
    expect((await page(env, `/portal/leads/${leadId}`, { cookie, form: { if_updated_at: '', phase: 'won' } })).status).toBe(403);
    const other = await crmTenant(env);
    const foreign = await other.lead({ classification: 'hot' });
    expect((await page(env, `/portal/leads/${foreign.leadId}`, { cookie, form: { ...base, phase: 'won' } })).status).toBe(404);
    expect((await other.crm('GET', `/v1/crm/leads/${foreign.leadId}`)).json.lead.phase).toBe('new');
    expect((await t.crm('GET', `/v1/crm/leads/${leadId}`)).json.lead.phase).toBe('new');
  });
});

describe('portal users of another tenant', () => {
  it("a portal user sees only their own client's leads even when the org has others", async () => {
    const t = await newTenant(env, { features: { crm: true } });
    const clientB = await t.addClient('Client B');
    const campaignB = await t.addCampaign(clientB.id, 'Campaign B');
    const mine = await t.reply({ body: 'Sounds good, can we schedule a call next week?' });
    const theirs = await t.reply({ campaign_id: campaignB.id, body: 'Sounds good, can we schedule a call next week?' });
    const cookieB = await signIn(env, (await invitePortalUser(t, undefined, 'Bea', clientB.id)).sign_in_url);
    const list = await page(env, '/portal/leads', { cookie: cookieB });
    expect(list.html).not.toContain(mine.leadId);
    expect(leadIdsOf(list.html)).toEqual([theirs.leadId]);
  });
});
