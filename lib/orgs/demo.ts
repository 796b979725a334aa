import { and, asc, count, eq } from 'drizzle-orm';
import { clients, organizations, replies } from '../../schema';
import type { Config } from '../config';
import type { Db } from '../db/types';
import { sendReply, type SendDeps } from '../sending';
import { inviteWebUser } from '../web/users';
import { deskUrl } from '../web/urls';
import { ingestReply, type Classify } from '../ingest/ingest_reply';
import { createCampaign, createClient, createKey, createOrg } from './admin';

const SAMPLE_REPLIES = [
  { from_email: 'maria.lopez@northwind.io', from_name: 'Maria Lopez', body: 'Sounds interesting - could we do a quick call on Thursday? What does pricing look like for a team of 12?' },
  { from_email: 'tom@acme-logistics.com', from_name: 'Tom Becker', body: 'Can you send more information? Not sure this is a fit yet.' },
  { from_email: 'j.smit@dutchdesign.nl', from_name: 'Jan Smit', body: 'Ik ben afwezig tot 2 december en heb beperkt toegang tot mijn e-mail.' },
  { from_email: 'sarah@brightlabs.co', from_name: null, body: 'Please remove me from your list.' },
  { from_email: 'ops@globex.com', from_name: 'Priya N', body: "I'm not the right person for this, you should talk to our COO." },
];

/**
 * On a new embedded database, `npm run dev` creates a demo organization so a developer can call the API at
 * once. Returns null when the database already has organizations.
 */
export async function seedDemoOrg(db: Db, classify: Classify, now: Date) {
  const [{ n }] = await db.select({ n: count() }).from(organizations);
  if (Number(n) > 0) return null;
  const org = await createOrg(db, { name: 'Demo Agency', features: { crm: true, agency_tools: true, studio: true }, demo: true });
  const client = await createClient(db, org.id, { name: 'Northwind Traders' });
  const campaign = await createCampaign(db, org.id, { name: 'Q4 outbound - operations leaders', client_id: client.id, sent: 1200, opened: 540 }, now);
  for (const [i, r] of SAMPLE_REPLIES.entries()) {
    await ingestReply({ db, orgId: org.id, classify, now, input: { campaign_id: campaign.id, ...r, received_at: new Date(now.getTime() - (i + 1) * 3_600_000).toISOString() } });
  }
  return { org, keys: await issueDemoKeys(db, org.id, client.id) };
}

/**
 * The demo organization's keys (owner, agent at level 2, CRM sync, and an assistant's agency key for the tool server
 * at /mcp: reads answer, writes get demo_org as in any demo organization); new ones each call, shown once.
 */
async function issueDemoKeys(db: Db, orgId: string, clientId: string) {
  const owner = await createKey(db, orgId, { name: 'demo owner (review queue)', scopes: ['*'] });
  const agent = await createKey(db, orgId, { name: 'demo agent (sends at once)', scopes: ['leads.read', 'replies.send', 'replies.approve', 'webhooks.manage'], autonomy_level: 2 });
  const crm = await createKey(db, orgId, { name: 'demo CRM sync', scopes: ['crm.read', 'crm.write'], client_id: clientId });
  const assistant = await createKey(db, orgId, { name: 'demo assistant (MCP)', kind: 'agency', scopes: ['replies.approve', 'leads.read', 'reports.read'] });
  return [owner, agent, crm, assistant];
}

/**
 * The existing demo organization (`npm run dev` made it on a new data dir), with new keys when asked
 * (`npm run dev -- --new-keys`): the first ones were shown once and are not stored in a readable form.
 */
export async function existingDemoOrg(db: Db, opts: { newKeys: boolean }) {
  const [org] = await db.select().from(organizations).where(eq(organizations.demo, true)).orderBy(asc(organizations.createdAt)).limit(1);
  if (!org) return null;
  if (!opts.newKeys) return { org, keys: [] };
  const [client] = await db.select().from(clients).where(and(eq(clients.orgId, org.id))).orderBy(asc(clients.createdAt)).limit(1);
  if (!client) return { org, keys: [] };
  return { org, keys: await issueDemoKeys(db, org.id, client.id) };
}

/**
 * A sign-in link for each page face of the demo organization (the client portal of its first client, the review
 * desk), so `npm run dev` shows the pages at once. Links work once, for 15 minutes; each start makes new ones.
 */
export async function demoSignInLinks(db: Db, config: Config, now: Date, orgId: string) {
  const [client] = await db.select().from(clients).where(eq(clients.orgId, orgId)).orderBy(asc(clients.createdAt)).limit(1);
  const desk = await inviteWebUser({ db, now, target: { kind: 'desk', orgId }, input: { email: 'reviewer@demo.example', name: 'Demo Reviewer' }, signInBase: deskUrl(config) });
  const portal = client
    ? await inviteWebUser({ db, now, target: { kind: 'portal', clientId: client.id }, input: { email: 'client@demo.example', name: 'Demo Client' }, signInBase: config.portalUrl })
    : null;
  return { desk: desk.sign_in_url, portal: portal?.sign_in_url ?? null, clientName: client?.name ?? null };
}

/**
 * One draft waiting in the review queue of a new demo organization: the owner key (autonomy level 0) answers Tom's
 * question through the governed-send verb, which queues it, exactly as a level-0 key's send would.
 */
export async function queueDemoDraft(deps: SendDeps, orgId: string, owner: { id: string; name: string }) {
  const [reply] = await deps.db.select({ id: replies.id }).from(replies).where(and(eq(replies.orgId, orgId), eq(replies.fromEmail, 'tom@acme-logistics.com'))).limit(1);
  if (!reply) return;
  const actor = { orgId, clientId: null, keyId: owner.id, keyName: owner.name, autonomyLevel: 0 };
  const body = 'Hi Tom,\n\nHappy to. In short: we answer your replies within minutes and book the calls for you. I have attached a one-page overview; would a 15-minute call next week help to see whether it fits?\n\nBest,\nAlex';
  await sendReply({ deps, actor, replyId: reply.id, input: { body } });
}
