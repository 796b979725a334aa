// `npm run screenshots`: PNGs of the pages people use, for docs/ and the README. A fresh embedded database (a
// temporary data dir, removed after) gets a demo client with a dozen leads and one conversation, and a review queue
// of drafts from two clients' campaigns; the service is
// served on 127.0.0.1 and Debian's chromium (playwright-core, the browser tests' settings) signs in by link as a
// person would and photographs each entry of SHOTS. A new page is a new entry; a new face (the desk) is an entry in
// SIGN_IN plus its pages in SHOTS.
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions } from 'playwright-core';
import { loadConfig } from '../lib/config';
import { ingestReply } from '../lib/ingest/ingest_reply';
import { createCampaign, createClient, createKey, createOrg } from '../lib/orgs/admin';
import { createNodeServices, type NodeServices } from '../lib/runtime/node';
import { DESKTOP, launchChromium, missingBrowser, PHONE } from '../test/browser/chromium';
import { freePort } from '../test/helpers/free_port';
import { serveNode } from './node_server';

const OUT = 'docs/screenshots';
type Face = 'portal' | 'desk';
type Demo = Awaited<ReturnType<typeof seedDemo>>;

/** The pages to photograph, in order. `path` may ask the demo for anything it seeded (a lead id, a new link). */
// Desktop shots show the whole page; a phone shot shows one screen, as a phone does.
const SHOTS: Array<{ file: string; face: Face; viewport: 'desktop' | 'phone'; signedIn: boolean; path(demo: Demo): string | Promise<string> }> = [
  { file: 'portal-sign-in.png', face: 'portal', viewport: 'desktop', signedIn: false, path: async (d) => new URL(await d.signInUrl('portal')).pathname },
  { file: 'portal-leads.png', face: 'portal', viewport: 'desktop', signedIn: true, path: () => '/portal/leads' },
  { file: 'portal-lead.png', face: 'portal', viewport: 'desktop', signedIn: true, path: (d) => `/portal/leads/${d.threadLeadId}` },
  { file: 'portal-leads-phone.png', face: 'portal', viewport: 'phone', signedIn: true, path: () => '/portal/leads' },
  { file: 'desk-home.png', face: 'desk', viewport: 'desktop', signedIn: true, path: () => '/desk/' },
  { file: 'desk-queue.png', face: 'desk', viewport: 'desktop', signedIn: true, path: () => '/desk/replies' },
  { file: 'desk-draft.png', face: 'desk', viewport: 'desktop', signedIn: true, path: (d) => `/desk/replies/${d.draftReplyId}` },
  { file: 'desk-draft-phone.png', face: 'desk', viewport: 'phone', signedIn: true, path: (d) => `/desk/replies/${d.draftReplyId}` },
];

/** Who signs in to each face: the admin route that issues a person a one-time link. */
const SIGN_IN: Record<Face, (d: { orgId: string; clientId: string }) => { route: string; email: string; name: string }> = {
  portal: (d) => ({ route: `/admin/v1/clients/${d.clientId}/portal-users`, email: 'casey.morgan@northwind.example', name: 'Casey Morgan' }),
  desk: (d) => ({ route: `/admin/v1/orgs/${d.orgId}/desk-users`, email: 'rita@agency.example', name: 'Rita Reviewer' }),
};

const VIEWPORTS: Record<'desktop' | 'phone', BrowserContextOptions> = {
  desktop: { viewport: { width: DESKTOP.width, height: 800 } },
  phone: { viewport: PHONE, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
};

const HOUR = 3_600_000;
// name, address, what they wrote, hours ago, classification, then what the agency's CRM sync has recorded.
const LEADS: Array<{ name: string; email: string; body: string; hoursAgo: number; classification: 'hot' | 'warm' | 'cold' | 'not_interested'; crm?: Record<string, unknown>; note?: string }> = [
  { name: 'Maria Lopez', email: 'maria.lopez@brightlane.example', body: 'Sounds interesting - could we do a quick call on Thursday? What does pricing look like for a team of 12?', hoursAgo: 3, classification: 'hot', crm: { phase: 'proposal', deal: { value: 14400, currency: 'EUR' }, next_action: { date: '2026-12-03', note: 'Send the proposal' } }, note: 'Team of 12, budget approved for Q1.' },
  { name: 'Aiko Tanaka', email: 'aiko.tanaka@kitehaven.example', body: 'Yes, interested. Can you do a demo for three of us next week?', hoursAgo: 7, classification: 'hot', crm: { phase: 'negotiation', deal: { value: 32000, currency: 'EUR' }, next_action: { date: '2026-12-05', note: 'Contract review with legal' } } },
  { name: 'Tom Becker', email: 'tom@acme-logistics.example', body: 'Can you send more information? Not sure this is a fit yet.', hoursAgo: 11, classification: 'warm', crm: { phase: 'contacted' } },
  { name: 'Chloé Martin', email: 'chloe.martin@atelier-lumen.example', body: "Let's talk. Tuesday afternoon works for me.", hoursAgo: 20, classification: 'hot', crm: { phase: 'discovery', next_action: { date: '2026-12-02', note: 'Call at 15:00' } } },
  { name: 'Priya Natarajan', email: 'priya@globex-retail.example', body: "I'm not the right person for this, you should talk to our COO, Dev Malhotra.", hoursAgo: 26, classification: 'warm' },
  { name: 'Lukas Weber', email: 'l.weber@weber-spedition.example', body: 'Interesting timing: we are reviewing vendors in January. Send me something I can forward.', hoursAgo: 31, classification: 'warm', crm: { phase: 'contacted', next_action: { date: '2027-01-08', note: 'Follow up after vendor review' } } },
  { name: 'Sofia Rossi', email: 'sofia.rossi@verdemare.example', body: 'Signed and sent back. Looking forward to getting started!', hoursAgo: 45, classification: 'hot', crm: { phase: 'won', deal: { value: 9600, currency: 'EUR' } } },
  { name: 'Hannah Schmidt', email: 'hannah.schmidt@nordlicht-energie.example', body: 'Do you have a case study from a logistics company?', hoursAgo: 52, classification: 'warm' },
  { name: 'Jan Smit', email: 'j.smit@dutchdesign.example', body: 'Not right now. Maybe in Q2 next year.', hoursAgo: 70, classification: 'cold', crm: { phase: 'new', next_action: { date: '2027-04-01', note: 'Check back in Q2' } } },
  { name: 'Olumide Adeyemi', email: 'olumide@lagosbyte.example', body: 'We built something in-house last year, so probably not.', hoursAgo: 96, classification: 'cold', crm: { phase: 'lost' } },
  { name: 'Grace Kim', email: 'grace.kim@harborview.example', body: 'Thanks, I will share this with the team and get back to you.', hoursAgo: 130, classification: 'cold' },
  { name: 'Ben Carter', email: 'ben@carter-and-sons.example', body: 'Please remove me from your list.', hoursAgo: 150, classification: 'not_interested' },
];

// The review queue: drafts the assistant (autonomy level 1) wrote for LEADS by name, and for a second client's
// prospects a trial key at level 0 wrote; each waits for a person at the desk.
const DRAFTS: Record<string, string> = {
  'Priya Natarajan': 'Thanks, Priya, that helps. Would you mind introducing me to Dev, or shall I write to him directly and mention that you pointed me his way?\n\nBest,\nJonas',
  'Hannah Schmidt': 'Hi Hannah,\n\nyes: Kessler Freight cut missed delivery slots by 18% in their first quarter with us. I will attach the two-page case study.\n\nWould a 20-minute walkthrough next week be useful?\n\nJonas',
  'Lukas Weber': 'Hi Lukas,\n\ngood timing then. Here is a one-pager you can forward, with references from two freight forwarders of your size. Shall I check back in the second week of January?\n\nBest regards,\nJonas',
};
const OTHER_CLIENT: Array<{ name: string; email: string; body: string; hoursAgo: number; draft: string }> = [
  { name: 'Eva de Vries', email: 'eva.devries@kliniek-zuid.example', body: 'We are opening two new clinics in spring. Does your scheduling tool handle several locations with shared staff?', hoursAgo: 5, draft: 'Hi Eva,\n\nit does: every location keeps its own calendar, staff can work at several, and the practice manager sees one overview.\n\nWould a short demo on Tuesday or Wednesday suit you?\n\nJonas' },
  { name: 'Mark Jansen', email: 'm.jansen@fysio-oost.example', body: 'Who else in physiotherapy uses this? I would like to speak to a reference customer first.', hoursAgo: 9, draft: 'Hi Mark,\n\nfair question. Fysio Centrum Delft has used it for two years, and their practice manager is happy to take a call. Shall I set that up?\n\nJonas' },
];

async function main() {
  const missing = missingBrowser();
  if (missing) throw new Error(`cannot take screenshots: ${missing}`);
  const dataDir = mkdtempSync(join(tmpdir(), 'ris-screenshots-'));
  const port = await freePort();
  const origin = `http://127.0.0.1:${port}`;
  const adminToken = randomBytes(24).toString('hex');
  const config = loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: String(port), PUBLIC_BASE_URL: origin, PORTAL_URL: `${origin}/portal`, ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' });
  const services = await createNodeServices(config);
  const server = await serveNode(services, '127.0.0.1', port);
  let browser: Browser | undefined;
  try {
    const demo = await seedDemo(services, origin, adminToken);
    browser = await launchChromium();
    mkdirSync(OUT, { recursive: true });
    const sessions = new Map<Face, Awaited<ReturnType<typeof signIn>>>();
    for (const shot of SHOTS) {
      const path = await shot.path(demo);
      let storageState: BrowserContextOptions['storageState'];
      if (shot.signedIn) {
        if (!sessions.has(shot.face)) sessions.set(shot.face, await signIn(browser, await demo.signInUrl(shot.face)));
        storageState = sessions.get(shot.face);
      }
      const context = await browser.newContext({ ...VIEWPORTS[shot.viewport], storageState, colorScheme: 'light' });
      const page = await context.newPage();
      const res = await page.goto(`${origin}${path}`);
      if (!res || res.status() !== 200) throw new Error(`${shot.file}: ${path.replace(/sign-in\/.*/, 'sign-in/[token]')} answered ${res?.status()}`);
      await page.screenshot({ path: join(OUT, shot.file), fullPage: shot.viewport === 'desktop' });
      await context.close();
      console.log(`wrote ${join(OUT, shot.file)}`);
    }
  } finally {
    await browser?.close();
    server.close();
    (server as { closeAllConnections?: () => void }).closeAllConnections?.();
    await services.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Opens the link and presses its button; returns the signed-in browser state for the shots' contexts. */
async function signIn(browser: Browser, signInUrl: string) {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(signInUrl);
  await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Sign in' }).click()]);
  const state = await context.storageState();
  await context.close();
  return state;
}

/**
 * The demo agency: one client, two campaigns, LEADS as its CRM sync recorded them, and one whole conversation; a
 * second client with one campaign; drafts queued for review from both clients' campaigns (DRAFTS, OTHER_CLIENT).
 */
async function seedDemo(services: NodeServices, origin: string, adminToken: string) {
  const db = services.db;
  const now = services.clock.now();
  const call = async (method: string, path: string, auth: Record<string, string>, body?: unknown) => {
    const res = await fetch(`${origin}${path}`, { method, headers: { ...auth, 'content-type': 'application/json' }, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${text}`);
    return JSON.parse(text);
  };
  const org = await createOrg(db, { name: 'Lighthouse Outbound', features: { crm: true } });
  const client = await createClient(db, org.id, { name: 'Northwind Traders' });
  const campaigns = [
    await createCampaign(db, org.id, { name: 'Q4 outbound - operations leaders', client_id: client.id, sent: 1200, opened: 540 }, now),
    await createCampaign(db, org.id, { name: 'Logistics directors DACH', client_id: client.id, sent: 800, opened: 310 }, now),
  ];
  const subjects = new Map<string, string>();
  subjects.set(campaigns[0].id, 'Re: Fewer missed handovers in your operations team');
  subjects.set(campaigns[1].id, 'Re: Route planning for DACH logistics');
  const owner = { 'x-service-key': (await createKey(db, org.id, { name: 'Lighthouse team', scopes: ['*'] })).secret };
  const agent = { 'x-service-key': (await createKey(db, org.id, { name: 'Reply agent', scopes: ['*'], autonomy_level: 2 })).secret };
  const assistant = { 'x-service-key': (await createKey(db, org.id, { name: 'Reply assistant', scopes: ['*'], autonomy_level: 1 })).secret };
  const trialKey = { 'x-service-key': (await createKey(db, org.id, { name: 'Copy assistant (trial)', scopes: ['*'], autonomy_level: 0 })).secret };
  const crmSync = { 'x-service-key': (await createKey(db, org.id, { name: 'HubSpot sync', scopes: ['crm.read', 'crm.write'], client_id: client.id, rate_limit_per_minute: 1000 })).secret };
  const admin = { authorization: `Bearer ${adminToken}` };

  const ingestTo = (campaignId: string, lead: { name: string; email: string }, body: string, at: Date) =>
    ingestReply({ db, orgId: org.id, classify: services.classify, now: at, input: { campaign_id: campaignId, from_email: lead.email, from_name: lead.name, subject: subjects.get(campaignId), body, received_at: at.toISOString() } });
  const ingest = (i: number, lead: (typeof LEADS)[number], body: string, at: Date) => ingestTo(campaigns[i % 2].id, lead, body, at);
  /** A draft the key may not send on its own: the API answers 202 and the draft waits at the desk. */
  const queue = async (replyId: string, key: Record<string, string>, body: string) => {
    const res = await fetch(`${origin}/v1/replies/${replyId}/send`, { method: 'POST', headers: { ...key, 'content-type': 'application/json' }, body: JSON.stringify({ body }) });
    if (res.status !== 202) throw new Error(`queueing a draft for ${replyId}: ${res.status} ${await res.text()}`);
  };
  let threadLeadId = '';
  let draftReplyId = '';
  for (const [i, lead] of LEADS.entries()) {
    const { reply, leadId } = await ingest(i, lead, lead.body, new Date(now.getTime() - lead.hoursAgo * HOUR));
    await call('PATCH', `/v1/leads/${reply.id}`, owner, { classification: lead.classification });
    if (lead.crm) await call('PATCH', `/v1/crm/leads/${leadId}`, crmSync, lead.crm);
    if (lead.note) await call('POST', `/v1/crm/leads/${leadId}/notes`, crmSync, { text: lead.note });
    if (i === 0) {
      // The conversation of the lead page: her reply, the agent's answer (sent now), her answer to that.
      threadLeadId = leadId;
      await call('POST', `/v1/replies/${reply.id}/send`, agent, { body: 'Hi Maria, thanks! Thursday 10:00 CET works. For a team of 12 it is 1,200 EUR a month; I will bring the details to the call.' });
      const latest = await ingest(i, lead, 'Perfect, Thursday 10:00 it is. Could you also send a short overview beforehand?', services.clock.now());
      // The desk's draft page: the assistant's answer to her latest reply, beside the whole conversation.
      draftReplyId = latest.reply.id;
      await queue(draftReplyId, assistant, 'Hi Maria,\n\nof course. You will have a two-page overview by tomorrow noon: pricing for 12 seats, a sample rollout plan and the onboarding timeline, so there is time to read it before Thursday.\n\nTalk soon,\nJonas');
    } else if (DRAFTS[lead.name]) {
      await queue(reply.id, assistant, DRAFTS[lead.name]);
    }
  }
  const otherClient = await createClient(db, org.id, { name: 'Fabrikam Health' });
  const clinics = await createCampaign(db, org.id, { name: 'Clinic managers NL', client_id: otherClient.id, sent: 450, opened: 230 }, now);
  subjects.set(clinics.id, 'Re: Scheduling across clinic locations');
  for (const p of OTHER_CLIENT) {
    const { reply } = await ingestTo(clinics.id, p, p.body, new Date(now.getTime() - p.hoursAgo * HOUR));
    await queue(reply.id, trialKey, p.draft);
  }
  return {
    threadLeadId,
    draftReplyId,
    /** A new one-time link for the face's demo person (every call a new link, as the admin route does). */
    signInUrl: async (face: Face): Promise<string> => {
      const who = SIGN_IN[face]({ orgId: org.id, clientId: client.id });
      return (await call('POST', who.route, admin, { email: who.email, name: who.name })).sign_in_url;
    },
  };
}

await main();
