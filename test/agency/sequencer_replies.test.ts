// The simulated sequencer's replies enter the core ingestion: a lead per prospect with the classification of what
// they wrote, a `lead.replied` event per reply, and the same replies ingested again (also concurrently) add nothing.
// Replies whose reference maps to no campaign of the organization are not ingested.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { events, leads, replies } from '../../schema';
import type { SequencerLead } from '../../lib/ports/sequencer/port';
import { ingestSimReplies } from '../../lib/ports/sequencer/replies';
import { createSimSequencer } from '../../lib/ports/sequencer/sim';
import { runSimSequencerDay, type SimReply } from '../../lib/ports/sequencer/sim_day';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const sim = createSimSequencer();
const lead = (i: number): SequencerLead => ({
  email: `buyer${i}@prospect${i % 23}.com`,
  first_name: `Maria${i}`,
  last_name: 'Rossi',
  company: `Co ${i}`,
  mails: [{ step: 1, subject: 'Quick question', body: `Hello Maria${i}`, delay_days: 0 }],
});

/** An organization whose simulated campaign has sent one day to 400 leads, and its replies. */
async function repliedDay() {
  const t = await newTenant(env);
  const db = env.services.db;
  const c = await sim.ensureCampaign({ db }, { orgId: t.org.id, reference: `studio-${t.campaign.id}`, name: 'Studio', mailboxes: [{ address: 'a@brand.com', daily_cap: 400 }] });
  if (!c.ok) throw new Error(c.detail);
  for (let i = 0; i < 400; i += 100) {
    const r = await sim.addLeads({ db }, { orgId: t.org.id, provider_campaign_id: c.provider_campaign_id, leads: Array.from({ length: 100 }, (_, k) => lead(i + k)) });
    if (!r.ok) throw new Error(r.detail);
  }
  const day = await runSimSequencerDay(db, 'replies-seed', t.org.id, '2026-03-02');
  expect(day.replies.length).toBeGreaterThan(3);
  const map = (ref: string) => (ref === `studio-${t.campaign.id}` ? t.campaign.id : null);
  return { t, day, map };
}

const repliesOf = (orgId: string) => env.services.db.select().from(replies).where(eq(replies.orgId, orgId));
const repliedEvents = async (orgId: string) => (await env.services.db.select().from(events).where(eq(events.orgId, orgId))).filter((e) => e.kind === 'lead.replied');

describe('simulated sequencer replies in the core ingestion', () => {
  it('creates the leads with their classification and a lead.replied event per reply', async () => {
    const { t, day, map } = await repliedDay();
    const result = await ingestSimReplies(env.services, t.org.id, day.replies, map);
    expect(result).toMatchObject({ ingested: day.replies.length, duplicates: 0, unmapped: 0 });
    expect(await repliesOf(t.org.id)).toHaveLength(day.replies.length);
    expect(await repliedEvents(t.org.id)).toHaveLength(day.replies.length);

    const interested: SimReply = { ...day.replies[0], email: 'eager@prospect.com', first_name: 'Eva', message_id: '<sim-eager@sequencer.sim>', body: 'Hi, Eva here. This sounds interesting and timely for us. Could we book a call next week? Tuesday or Wednesday afternoon works for me.' };
    await ingestSimReplies(env.services, t.org.id, [interested], map);
    const [eva] = await env.services.db.select().from(leads).where(and(eq(leads.orgId, t.org.id), eq(leads.email, 'eager@prospect.com')));
    expect(eva).toMatchObject({ campaignId: t.campaign.id, classification: 'hot', replyCount: 1 });
    const event = (await repliedEvents(t.org.id)).find((e) => (e.data as { from_email?: string }).from_email === 'eager@prospect.com');
    expect(event?.data).toMatchObject({ lead_id: eva.id, campaign_id: t.campaign.id, classification: 'hot' });

    // The simulated text itself: every "book a call" reply is classified hot, every "not interested" one not_interested.
    const stored = await repliesOf(t.org.id);
    for (const r of stored) {
      if (r.body.includes('book a call')) expect(r.classification).toBe('hot');
      if (r.body.includes('not interested')) expect(r.classification).toBe('not_interested');
    }
  });

  it('ingests the same replies once, again and concurrently', async () => {
    const { t, day, map } = await repliedDay();
    await ingestSimReplies(env.services, t.org.id, day.replies, map);
    const again = await ingestSimReplies(env.services, t.org.id, day.replies, map);
    expect(again).toMatchObject({ ingested: 0, duplicates: day.replies.length });
    const raced = await Promise.all([1, 2, 3].map(() => ingestSimReplies(env.services, t.org.id, day.replies, map)));
    expect(raced.every((r) => r.ingested === 0)).toBe(true);
    expect(await repliesOf(t.org.id)).toHaveLength(day.replies.length);
    expect(await repliedEvents(t.org.id)).toHaveLength(day.replies.length);

    const fresh = await repliedDay();
    const concurrent = await Promise.all([1, 2, 3].map(() => ingestSimReplies(env.services, fresh.t.org.id, fresh.day.replies, fresh.map)));
    expect(concurrent.reduce((s, r) => s + r.ingested, 0)).toBe(fresh.day.replies.length);
    expect(await repliesOf(fresh.t.org.id)).toHaveLength(fresh.day.replies.length);
  });

  it('does not ingest a reply whose campaign maps to nothing, or to another organization campaign', async () => {
    const { t, day } = await repliedDay();
    const other = await newTenant(env);
    expect(await ingestSimReplies(env.services, t.org.id, day.replies, () => null)).toMatchObject({ ingested: 0, unmapped: day.replies.length });
    expect(await ingestSimReplies(env.services, t.org.id, day.replies, () => other.campaign.id)).toMatchObject({ ingested: 0, unmapped: day.replies.length });
    expect(await repliesOf(t.org.id)).toHaveLength(0);
    expect(await repliesOf(other.org.id)).toHaveLength(0);
  });
});
