// The client portal (issue 19) in a real Chromium: a person signs in by link, sees only the leads the CRM API shows,
// opens a CRM thread_url, edits a lead (once by keyboard alone), and cannot be made to post a form by another site;
// used and expired links are refused; no page scrolls sideways on a phone. Setup goes through the service's own
// admin/CRM API (in process); everything a person does goes through the browser and the real HTTP server.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { crmTenant, setClassification, type CrmTenant } from '../api/crm_helpers';
import { invitePortalUser } from '../api/portal_helpers';
import { keyAt } from '../api/send_helpers';
import { describeInBrowser, PHONE } from './harness';
import { heading, horizontalOverflow, listedLeadIds, navigation, removeFromPage, scriptReadableCookies, signInByLink, tabTo } from './portal_flow';

describeInBrowser('client portal in Chromium', (s) => {
  const crmLead = async (t: CrmTenant, leadId: string) => {
    const r = await t.crm('GET', `/v1/crm/leads/${leadId}`);
    expect(r.status, r.text).toBe(200);
    return r.json.lead;
  };

  it('signs in by link: a button to press, then the leads list with a session cookie no script can read', async () => {
    const t = await crmTenant(s.env);
    const { sign_in_url } = await invitePortalUser(t, undefined, 'Casey Client');
    expect(new URL(sign_in_url).origin).toBe(s.origin);
    const page = await s.newPage();
    const landing = await page.goto(sign_in_url);
    expect(landing?.status()).toBe(200);
    expect(await heading(page)).toBe('Sign in');
    expect(await page.context().cookies()).toEqual([]); // opening the link signs nobody in
    const done = await navigation(page, () => page.getByRole('button', { name: 'Sign in' }).click());
    expect(done.status()).toBe(200);
    expect(page.url()).toBe(`${s.origin}/portal/leads`);
    expect(await heading(page)).toBe('Leads');
    expect(await page.locator('header .who').innerText()).toBe('Casey Client');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'ris_portal', httpOnly: true, sameSite: 'Lax', path: '/portal', secure: false });
    expect(await scriptReadableCookies(page)).toBe('');
  });

  it("lists only the visible leads of the person's client; another client's lead is a 404 page", async () => {
    const t = await crmTenant(s.env);
    const hot = await t.lead({ classification: 'hot', name: 'Hana Hot' });
    s.env.clock.advance(1_000);
    const warm = await t.lead({ classification: 'warm', name: 'Walt Warm' });
    s.env.clock.advance(1_000);
    const hidden = await t.lead({ classification: 'not_interested', name: 'Nina Not' });
    const clientB = await t.addClient('Client B');
    const campaignB = await t.addCampaign(clientB.id, 'Campaign B');
    const sibling = await t.reply({ campaign_id: campaignB.id, from_name: 'Sam Sibling' });
    await setClassification(s.env, sibling.leadId, 'hot');
    const page = await s.newPage();
    await signInByLink(page, (await invitePortalUser(t)).sign_in_url);
    expect(await listedLeadIds(page)).toEqual([warm.leadId, hot.leadId]);
    const names = await page.locator('tr[data-lead-id] td[data-label="Lead"] a').allInnerTexts();
    expect(names).toEqual(['Walt Warm', 'Hana Hot']);
    for (const id of [sibling.leadId, hidden.leadId]) {
      const r = await page.goto(`${s.origin}/portal/leads/${id}`);
      expect(r?.status(), id).toBe(404);
      expect(await heading(page)).toBe('Not found');
      expect(await page.content()).not.toMatch(/Sam Sibling|Nina Not/);
    }
    // A link on the list leads to the lead's page.
    await page.goto(`${s.origin}/portal/leads`);
    await navigation(page, () => page.getByRole('link', { name: 'Hana Hot' }).click());
    expect(page.url()).toBe(`${s.origin}/portal/leads/${hot.leadId}`);
  });

  it('opens the thread_url of the CRM API and shows the whole conversation in order', async () => {
    const t = await crmTenant(s.env, { crmKeyName: 'HubSpot sync' });
    const agent = await keyAt(t, 2);
    const email = 'dana.whitfield@brightlabs.example';
    const first = await t.reply({ from_email: email, from_name: 'Dana Whitfield', body: 'Sounds interesting. Could we talk on Tuesday?' });
    s.env.clock.advance(60_000);
    const sent = await t.call('POST', `/v1/replies/${first.reply.id}/send`, { key: agent, body: { body: 'Great, Tuesday 10:00 works. I will send an invite.' } });
    expect(sent.status, sent.text).toBe(200);
    s.env.clock.advance(60_000);
    const second = await t.reply({ from_email: email, from_name: 'Dana Whitfield', body: 'Received the invite, see you then.' });
    expect(second.leadId).toBe(first.leadId);
    await setClassification(s.env, first.leadId, 'hot');

    const list = await t.crm('GET', '/v1/crm/leads');
    expect(list.status, list.text).toBe(200);
    const threadUrl: string = list.json.leads.find((l: { id: string }) => l.id === first.leadId).thread_url;
    expect(threadUrl).toBe(`${s.origin}/portal/leads/${first.leadId}`);

    const page = await s.newPage();
    await signInByLink(page, (await invitePortalUser(t)).sign_in_url);
    const r = await page.goto(threadUrl);
    expect(r?.status()).toBe(200);
    expect(await heading(page)).toBe('Dana Whitfield');
    const thread = await page.locator('ol.thread > li').evaluateAll((items) => items.map((li) => [li.className, li.querySelector('p')?.textContent]));
    expect(thread).toEqual([
      ['reply', 'Sounds interesting. Could we talk on Tuesday?'],
      ['outbound', 'Great, Tuesday 10:00 works. I will send an invite.'],
      ['reply', 'Received the invite, see you then.'],
    ]);
  });

  it('refuses a form posted without its CSRF token, or from another site, and changes nothing', async () => {
    const t = await crmTenant(s.env);
    const { leadId } = await t.lead({ classification: 'hot' });
    const page = await s.newPage();
    await signInByLink(page, (await invitePortalUser(t)).sign_in_url);
    const leadUrl = `${s.origin}/portal/leads/${leadId}`;
    await page.goto(leadUrl);
    const token = await page.locator('form.edit input[name="_csrf"]').inputValue();
    expect(token).toMatch(/^[A-Za-z0-9]{20,}$/);

    // The page's own form, its token removed.
    await removeFromPage(page, 'form.edit input[name="_csrf"]');
    await page.selectOption('#phase', 'won');
    await page.fill('#note', 'forged note');
    const refused = await navigation(page, () => page.getByRole('button', { name: 'Save' }).click());
    expect(refused.status()).toBe(403);
    expect(await heading(page)).toBe('Form refused');

    // Another site's page posting to the portal, even with a valid token: the browser says where it comes from.
    await page.route('http://evil.example/**', (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<form method="post" action="${leadUrl}"><input type="hidden" name="_csrf" value="${token}"><input type="hidden" name="if_updated_at" value=""><input type="hidden" name="phase" value="lost"><button>Win a prize</button></form>`,
      }),
    );
    await page.goto('http://evil.example/prize');
    const crossSite = await navigation(page, () => page.getByRole('button', { name: 'Win a prize' }).click());
    expect(crossSite.url()).toBe(leadUrl);
    expect(crossSite.status()).toBe(403);
    expect(await heading(page)).toBe('Form refused');

    const lead = await crmLead(t, leadId);
    expect(lead.phase).toBe('new');
    expect(lead.notes).toEqual([]);
    // The session is intact: the refusals did nothing, not even sign out.
    expect((await page.goto(leadUrl))?.status()).toBe(200);
  });

  it('refuses a used link and a link that expired while its page was open', async () => {
    const t = await crmTenant(s.env);
    const used = await invitePortalUser(t);
    await signInByLink(await s.newPage(), used.sign_in_url);
    const second = await s.newPage();
    const again = await second.goto(used.sign_in_url);
    expect(again?.status()).toBe(410);
    expect(await heading(second)).toBe('This link was already used');
    expect(await second.context().cookies()).toEqual([]);

    const expiring = await invitePortalUser(t);
    const late = await s.newPage();
    expect((await late.goto(expiring.sign_in_url))?.status()).toBe(200);
    s.env.clock.advance(15 * 60_000 + 1_000);
    const pressed = await navigation(late, () => late.getByRole('button', { name: 'Sign in' }).click());
    expect(pressed.status()).toBe(410);
    expect(await heading(late)).toBe('This link has expired');
    expect(await late.context().cookies()).toEqual([]);
    expect((await late.goto(`${s.origin}/portal/leads`))?.status()).toBe(401);
  });

  it('saves phase and a note with the keyboard alone, and the next action with the mouse', async () => {
    const t = await crmTenant(s.env);
    const { leadId } = await t.lead({ classification: 'hot' });
    const page = await s.newPage();
    await signInByLink(page, (await invitePortalUser(t, undefined, 'Casey Client')).sign_in_url);
    await page.goto(`${s.origin}/portal/leads/${leadId}`);

    await tabTo(page, '#phase');
    await page.keyboard.type('dis'); // a closed select picks the option its typed letters start
    expect(await page.locator('#phase').inputValue()).toBe('discovery');
    await tabTo(page, '#note');
    await page.keyboard.type('Met at the fair; wants a demo.');
    await tabTo(page, 'form.edit button[type="submit"]');
    const saved = await navigation(page, () => page.keyboard.press('Enter'));
    expect(saved.status()).toBe(200);
    expect(page.url()).toBe(`${s.origin}/portal/leads/${leadId}`);
    expect(await field(page, 'Phase')).toBe('discovery');
    expect(await page.locator('section[aria-labelledby="crm-title"] li').allInnerTexts()).toEqual([expect.stringMatching(/Casey Client \(portal\)\s+Met at the fair; wants a demo\.$/)]);

    await page.selectOption('#phase', 'proposal');
    await page.fill('#next_action_date', '2026-12-24');
    await page.fill('#next_action_note', 'Send the proposal');
    expect((await navigation(page, () => page.getByRole('button', { name: 'Save' }).click())).status()).toBe(200);
    expect(await field(page, 'Phase')).toBe('proposal');
    expect(await field(page, 'Next action')).toBe('2026-12-24: Send the proposal');
    const lead = await crmLead(t, leadId);
    expect(lead).toMatchObject({ phase: 'proposal', next_action: { date: '2026-12-24', note: 'Send the proposal' } });
    expect(lead.notes.map((n: { by: string; text: string }) => [n.by, n.text])).toEqual([['Casey Client (portal)', 'Met at the fair; wants a demo.']]);
  });

  it('no page scrolls sideways on a phone (390x844)', async () => {
    const t = await crmTenant(s.env);
    const long = await t.lead({
      classification: 'hot',
      name: 'Maximiliane von Fürstenberg-Hohenlohe',
      email: 'maximiliane.fuerstenberg-hohenlohe@internationale-logistikgruppe.example',
      body: 'Thanks for reaching out. Please book a slot here: https://calendar.example/maximiliane-fuerstenberg-hohenlohe/30-minute-introduction?month=2026-12',
    });
    await t.lead({ classification: 'warm', name: 'Tom Becker' });
    const { sign_in_url } = await invitePortalUser(t);
    const page = await s.newPage({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    await page.goto(sign_in_url);
    const seen = [await horizontalOverflow(page)];
    await navigation(page, () => page.getByRole('button', { name: 'Sign in' }).click());
    seen.push(await horizontalOverflow(page));
    for (const path of [`/portal/leads/${long.leadId}`, '/portal/leads?classification=hot', '/portal/leads/00000000-0000-4000-8000-000000000000']) {
      await page.goto(`${s.origin}${path}`);
      seen.push(await horizontalOverflow(page));
    }
    expect(seen.map((v) => v.url)).toEqual(['/portal/sign-in/[token]', '/portal/leads', `/portal/leads/${long.leadId}`, '/portal/leads', '/portal/leads/00000000-0000-4000-8000-000000000000']);
    for (const v of seen) {
      // A mobile browser widens its window to fit wide content, so the window must also stay the phone's width.
      expect(v.innerWidth, v.url).toBe(PHONE.width);
      expect(v.scrollWidth, v.url).toBeLessThanOrEqual(v.innerWidth);
    }
  });
});

/** A CRM field of the lead page (the definition list), by its label. */
const field = (page: Page, label: string) => page.locator(`dl.fields dt:text-is("${label}") + dd`).innerText();
