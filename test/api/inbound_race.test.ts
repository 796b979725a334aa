// Sending tools retry on any timeout, often several times at once. On real PostgreSQL (integration tier) these
// deliveries really overlap; the embedded tier runs them too, serialised by PGlite.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { campaigns, events, inboundMessages, leads, replies } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { addSource, deliver, genericReply } from './inbound_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const db = () => env.services.db;

describe('inbound delivery races', () => {
  it('20 concurrent deliveries of one message: one reply, one lead, one event; 19 answers say duplicate', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const payload = genericReply({ campaign: { id: 'race-1', name: 'Race campaign' } });
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(env, source, payload)));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.filter((a) => a.json.duplicate === false)).toHaveLength(1);
    const replyIds = new Set(answers.map((a) => a.json.reply_id));
    expect(replyIds.size).toBe(1);

    const stored = await db().select().from(replies).where(eq(replies.orgId, t.org.id));
    expect(stored).toHaveLength(1);
    const storedLeads = await db().select().from(leads).where(eq(leads.orgId, t.org.id));
    expect(storedLeads).toHaveLength(1);
    expect(storedLeads[0].replyCount).toBe(1);
    // This organization's: other tests' organizations may use the same provider id.
    const created = await db().select().from(campaigns).where(and(eq(campaigns.orgId, t.org.id), eq(campaigns.providerCampaignId, 'race-1')));
    expect(created).toHaveLength(1);
    expect(created[0].replied).toBe(1);
    const replied = (await db().select().from(events).where(eq(events.orgId, t.org.id))).filter((e) => e.kind === 'lead.replied');
    expect(replied).toHaveLength(1);
    expect(await db().select().from(inboundMessages).where(eq(inboundMessages.sourceId, source.id))).toHaveLength(1);
  });

  it('20 different messages of one prospect to a campaign nobody knew: one campaign, one lead, 20 replies', async () => {
    const t = await newTenant(env);
    const source = await addSource(t, 'generic');
    const from = 'storm@prospect.io';
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => deliver(env, source, genericReply({ from_email: from, text: `Reply number ${i}: send details please`, campaign: { id: 'race-2', name: 'Storm' } }))),
    );
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(answers.every((a) => a.json.duplicate === false)).toBe(true);
    const created = await db().select().from(campaigns).where(eq(campaigns.orgId, t.org.id));
    expect(created.filter((c) => c.providerCampaignId === 'race-2')).toHaveLength(1);
    const storedLeads = await db().select().from(leads).where(eq(leads.email, from));
    expect(storedLeads.filter((l) => l.orgId === t.org.id)).toHaveLength(1);
    expect(storedLeads.find((l) => l.orgId === t.org.id)!.replyCount).toBe(20);
    expect(await db().select().from(replies).where(eq(replies.orgId, t.org.id))).toHaveLength(20);
  });

  it('20 concurrent deliveries naming a new campaign only by name create it once', async () => {
    const t = await newTenant(env);
    const source = await addSource(t);
    const answers = await Promise.all(Array.from({ length: 20 }, () => deliver(env, source, genericReply({ campaign: { name: 'Only a name' } }))));
    expect(answers.map((a) => a.status)).toEqual(Array(20).fill(200));
    expect(new Set(answers.map((a) => a.json.campaign_id)).size).toBe(1);
    const named = (await db().select().from(campaigns).where(eq(campaigns.orgId, t.org.id))).filter((c) => c.name === 'Only a name');
    expect(named).toHaveLength(1);
  });
});
