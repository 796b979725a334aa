// The review desk (issue 19) in a real Chromium: a desk user signs in by link, finds the queued draft, approves it
// (by mouse and by keyboard alone), edits then approves, rejects; a second tab approving the same draft gets
// "Already sent"; a form without its CSRF token is refused; no desk page scrolls sideways on a phone. Setup (a
// tenant, a draft queued by a level-1 key) goes through the service's API in process, as in test/api/desk.test.ts;
// everything a person does goes through the browser and the real HTTP server. The outbox and the Decision Trail are
// read through the admin API, the way the API tests count them.
import type { Page } from 'playwright-core';
import { expect, inject, it } from 'vitest';
import { recordSecret } from '../helpers/secret_scan';
import { newTenant, type Tenant } from '../helpers/tenant';
import { queuedDraft } from '../api/desk_helpers';
import { outbox, trail } from '../api/send_helpers';
import { describeInBrowser, PHONE } from './harness';
import { heading, horizontalOverflow, navigation, pressButton, removeFromPage, signInByLink, tabTo } from './portal_flow';

/** A new one-time desk link for a person of the tenant's organization (its token joins the run's secret scan). */
async function inviteDeskUser(t: Tenant, name = 'Rita Reviewer'): Promise<string> {
  const r = await t.admin('POST', `/admin/v1/orgs/${t.org.id}/desk-users`, { email: `rev${Math.random().toString(36).slice(2)}@agency.example`, name });
  expect(r.status, r.text).toBe(201);
  recordSecret(inject('logDir'), new URL(r.json.sign_in_url).pathname.split('/').pop()!);
  return r.json.sign_in_url;
}

const queuedIds = (page: Page) => page.locator('article[data-reply-id]').evaluateAll((cards) => cards.map((c) => c.getAttribute('data-reply-id')));
const statusLine = (page: Page) => page.getByRole('status').innerText();

describeInBrowser('review desk in Chromium', (s) => {
  /** A tenant with one draft queued by a level-1 key, and a desk user of its organization signed in on `page`. */
  async function deskWithDraft(name = 'Rita Reviewer', draft = 'Happy to set up a call: does Tuesday 10:00 work?') {
    const t = await newTenant(s.env);
    const reply = await queuedDraft(t, draft, { from_email: 'dana@brightlabs.example', from_name: 'Dana Whitfield', subject: 'Re: our offer', body: 'Sounds interesting. Could we talk next week?' });
    const page = await s.newPage();
    await signInByLink(page, await inviteDeskUser(t, name));
    return { t, reply, page, replyUrl: `${s.origin}/desk/replies/${reply.id}` };
  }

  it('signs in by link and finds the queued draft with its reason and autonomy level', async () => {
    const { reply, page } = await deskWithDraft();
    expect(page.url()).toBe(`${s.origin}/desk/`);
    expect(await heading(page)).toBe('Review desk');
    expect(await page.locator('header .who').innerText()).toBe('Rita Reviewer');
    const [cookie] = await page.context().cookies();
    expect(cookie).toMatchObject({ name: 'ris_desk', httpOnly: true, sameSite: 'Lax', path: '/desk' });
    const section = page.locator('section[data-section="review"]');
    expect(await section.locator('.count').innerText()).toBe('1 waiting.');

    await navigation(page, () => page.getByRole('link', { name: 'Drafts waiting for review' }).click());
    expect(page.url()).toBe(`${s.origin}/desk/replies`);
    expect(await heading(page)).toBe('Drafts waiting for review');
    expect(await queuedIds(page)).toEqual([reply.id]);
    const card = page.locator(`article[data-reply-id="${reply.id}"]`);
    const text = await card.innerText();
    for (const shown of ['Dana Whitfield: Re: our offer', 'Autonomy level 1: every draft of this key needs a person’s approval.', 'level 1 key, autonomy level 1', 'Sounds interesting. Could we talk next week?', 'Happy to set up a call: does Tuesday 10:00 work?']) {
      expect(text).toContain(shown);
    }
    await navigation(page, () => page.getByRole('link', { name: 'Review the draft for Dana Whitfield' }).click());
    expect(page.url()).toBe(`${s.origin}/desk/replies/${reply.id}`);
    expect(await heading(page)).toBe('Reply from Dana Whitfield');
  });

  it('approves: back on the queue with the confirmation, exactly one message out, the approver in the Decision Trail', async () => {
    const { t, reply, page, replyUrl } = await deskWithDraft('Rita Reviewer');
    await page.goto(replyUrl);
    const done = await pressButton(page, 'Approve and send');
    expect(done.status()).toBe(200);
    expect(page.url()).toBe(`${s.origin}/desk/replies?done=approved&reply=${reply.id}`);
    expect(await statusLine(page)).toMatch(/^Approved and sent\./);
    expect(await queuedIds(page)).toEqual([]);
    expect(await outbox(t)).toEqual([expect.objectContaining({ reply_id: reply.id, to_email: 'dana@brightlabs.example', body: 'Happy to set up a call: does Tuesday 10:00 work?' })]);
    const story = await trail(t, reply.id);
    expect(story.find((d) => d.action === 'reply.approved')).toMatchObject({ actor: 'Rita Reviewer', detail: { approver: 'Rita Reviewer' } });
    expect(story.find((d) => d.action === 'reply.sent')).toMatchObject({ detail: { approver: 'Rita Reviewer' } });
  });

  it('two tabs on one draft: the first approves, the second gets "Already sent" (409) and nothing more goes out', async () => {
    const { t, reply, page: tab1, replyUrl } = await deskWithDraft();
    const tab2 = await tab1.context().newPage(); // same person, same session
    await tab1.goto(replyUrl);
    await tab2.goto(replyUrl);
    expect((await pressButton(tab1, 'Approve and send')).status()).toBe(200);
    expect(await outbox(t)).toHaveLength(1);

    const second = await pressButton(tab2, 'Approve and send');
    expect(second.status()).toBe(409);
    expect(await heading(tab2)).toBe('Already sent');
    expect(await tab2.locator('main').innerText()).toMatch(/This reply was already sent at \d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC, so nothing was sent again\./);
    expect(await outbox(t)).toHaveLength(1);
    // Reopened, the reply says it went out and offers no decision.
    await tab2.goto(replyUrl);
    expect(await tab2.locator('main').innerText()).toContain('This reply was already sent at');
    expect(await tab2.getByRole('button', { name: 'Approve and send' }).count()).toBe(0);
    expect((await outbox(t)).map((m) => m.reply_id)).toEqual([reply.id]);
  });

  it('edits the draft, then sends the edited text', async () => {
    const { t, reply, page, replyUrl } = await deskWithDraft('Eddie Editor', 'Thanks! Call on Tuesday?');
    await page.goto(replyUrl);
    expect(await page.getByLabel('Reply to send').inputValue()).toBe('Thanks! Call on Tuesday?');
    await page.getByLabel('Reply to send').fill('Thanks, Dana! Does Tuesday 10:00 suit you?\n\nBest, Eddie');
    const done = await pressButton(page, 'Save edit and send');
    expect(done.status()).toBe(200);
    expect(page.url()).toBe(`${s.origin}/desk/replies?done=edited&reply=${reply.id}`);
    expect(await statusLine(page)).toMatch(/^Your edit was saved and sent\./);
    expect((await outbox(t)).map((m) => m.body)).toEqual(['Thanks, Dana! Does Tuesday 10:00 suit you?\n\nBest, Eddie']);
  });

  it('rejecting needs a reason: empty is refused on the page and changes nothing; with a reason the draft leaves the queue', async () => {
    const { t, reply, page, replyUrl } = await deskWithDraft();
    await page.goto(replyUrl);
    // Empty: the browser itself keeps the form (the field is required) and says why; no request is made.
    let posted = false;
    page.on('request', (r) => {
      if (r.method() === 'POST') posted = true;
    });
    await page.getByRole('button', { name: 'Reject' }).click();
    const reason = page.getByLabel('Reason for rejecting');
    expect(await reason.evaluate((el: unknown) => (el as { validity: { valueMissing: boolean } }).validity.valueMissing)).toBe(true);
    expect(await reason.evaluate((el: unknown) => (el as { validationMessage: string }).validationMessage)).not.toBe('');
    expect(posted).toBe(false);
    expect(page.url()).toBe(replyUrl);
    // Blank but not empty passes the browser: the desk answers with a page that says what is missing.
    await reason.fill('   ');
    const blank = await pressButton(page, 'Reject');
    expect(blank.status()).toBe(400);
    expect(await page.locator('main').innerText()).toContain('A rejection needs a reason');
    expect((await trail(t, reply.id)).map((d) => d.action)).toEqual(['reply.queued']);
    await page.goto(`${s.origin}/desk/replies`);
    expect(await queuedIds(page)).toEqual([reply.id]);

    await page.goto(replyUrl);
    await page.getByLabel('Reason for rejecting').fill('Too pushy for a first answer');
    expect((await pressButton(page, 'Reject')).status()).toBe(200);
    expect(await statusLine(page)).toMatch(/^Draft rejected/);
    expect(await queuedIds(page)).toEqual([]);
    expect((await trail(t, reply.id)).find((d) => d.action === 'reply.rejected')).toMatchObject({ detail: { reason: 'Too pushy for a first answer', approver: 'Rita Reviewer' } });
    expect(await outbox(t)).toEqual([]);
  });

  it('refuses the approve form posted without its CSRF token (403) and sends nothing', async () => {
    const { t, reply, page, replyUrl } = await deskWithDraft();
    await page.goto(replyUrl);
    await removeFromPage(page, 'form[action$="/approve"] input[name="_csrf"]');
    const refused = await pressButton(page, 'Approve and send');
    expect(refused.status()).toBe(403);
    expect(await heading(page)).toBe('Form refused');
    expect(await outbox(t)).toEqual([]);
    // Still queued, and the session is intact.
    await page.goto(`${s.origin}/desk/replies`);
    expect(await queuedIds(page)).toEqual([reply.id]);
  });

  it('keyboard only: Tab reaches "Approve and send", one Enter sends it once', async () => {
    const { t, reply, page, replyUrl } = await deskWithDraft();
    await page.goto(replyUrl);
    const approve = 'form[action$="/approve"] button[type="submit"]';
    await tabTo(page, approve);
    const done = await navigation(page, () => page.keyboard.press('Enter'));
    expect(done.status()).toBe(200);
    expect(page.url()).toBe(`${s.origin}/desk/replies?done=approved&reply=${reply.id}`);
    expect(await outbox(t)).toHaveLength(1);
  });

  it('no desk page scrolls sideways on a phone (390x844)', async () => {
    const t = await newTenant(s.env);
    const long = await queuedDraft(
      t,
      'Dear Maximiliane, thanks for the link: https://calendar.example/maximiliane-fuerstenberg-hohenlohe/30-minute-introduction?month=2026-12 - I booked Tuesday.',
      {
        from_name: 'Maximiliane von Fürstenberg-Hohenlohe',
        from_email: 'maximiliane.fuerstenberg-hohenlohe@internationale-logistikgruppe.example',
        subject: 'Re: Vorstellung unserer Lösung für die internationale Logistikgruppe',
        body: 'Thanks for reaching out. Please book a slot here: https://calendar.example/maximiliane-fuerstenberg-hohenlohe/30-minute-introduction?month=2026-12',
      },
    );
    const page = await s.newPage({ viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 3 });
    await page.goto(await inviteDeskUser(t));
    const seen = [await horizontalOverflow(page)];
    await pressButton(page, 'Sign in');
    seen.push(await horizontalOverflow(page));
    for (const path of ['/desk/replies', `/desk/replies/${long.id}`, '/desk/replies/00000000-0000-4000-8000-000000000000']) {
      await page.goto(`${s.origin}${path}`);
      seen.push(await horizontalOverflow(page));
    }
    expect(seen.map((v) => v.url)).toEqual(['/desk/sign-in/[token]', '/desk/', '/desk/replies', `/desk/replies/${long.id}`, '/desk/replies/00000000-0000-4000-8000-000000000000']);
    for (const v of seen) {
      expect(v.innerWidth, v.url).toBe(PHONE.width);
      expect(v.scrollWidth, v.url).toBeLessThanOrEqual(v.innerWidth);
    }
  });
});
