// The lead's classification merges each new reply into what the lead already said (lib/ingest/ingest_reply.ts):
// a neutral follow-up never demotes a hot or warm lead, an explicit no and a new hot/warm always win, an
// auto-reply never overwrites, and a manual PATCH is the starting point the next reply is merged into.
// Every test below includes at least one step the old rule ("only ooo keeps the earlier label") got wrong.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

// One reply per label, each checked below to classify as named (offline engine), so a failure here means the
// merge rule, not the classifier.
const SAY = {
  hot: "Yes, let's book a call on Tuesday at 10am.",
  warm: 'Send me some more info about the integrations, please.',
  cold: 'Thanks, got it.',
  who: 'Who are you?',
  referral: 'Not the right person, please talk to my colleague Jane.',
  not_interested: "We're not interested, thanks.",
  ooo: 'I am out of the office until 12 March with limited email access.',
} as const;
type Said = keyof typeof SAY;
const LABEL: Record<Said, string> = { hot: 'hot', warm: 'warm', cold: 'cold', who: 'cold', referral: 'cold', not_interested: 'not_interested', ooo: 'ooo' };

let seq = 0;
/** Ingests the replies in order from one prospect; returns the lead's classification after each one. */
async function thread(t: Tenant, said: Said[], email = `lead${++seq}@prospect.com`) {
  const after: (string | null)[] = [];
  for (const [i, s] of said.entries()) {
    const r = await t.reply({ from_email: email, body: SAY[s], received_at: new Date(Date.UTC(2026, 10, 1 + i, 9)).toISOString() });
    expect(r.reply.classification, `"${SAY[s]}" classifies as ${LABEL[s]}`).toBe(LABEL[s]);
    after.push(await leadClass(t, email));
  }
  return after;
}

async function leadClass(t: Tenant, email: string): Promise<string | null> {
  const r = await t.call('GET', '/v1/leads?limit=100');
  expect(r.status).toBe(200);
  const lead = r.json.leads.find((l: any) => l.email === email);
  return lead ? lead.classification : null;
}

describe('lead classification across replies', () => {
  it('a neutral or unclear follow-up keeps an earlier hot', async () => {
    const t = await newTenant(env);
    expect(await thread(t, ['hot', 'cold'])).toEqual(['hot', 'hot']);
    expect(await thread(t, ['hot', 'who'])).toEqual(['hot', 'hot']);
    expect(await thread(t, ['hot', 'referral'])).toEqual(['hot', 'hot']);
  });

  it('a neutral or unclear follow-up keeps an earlier warm', async () => {
    const t = await newTenant(env);
    expect(await thread(t, ['warm', 'cold'])).toEqual(['warm', 'warm']);
    expect(await thread(t, ['warm', 'who'])).toEqual(['warm', 'warm']);
  });

  it('a neutral follow-up does not reopen an explicit no', async () => {
    const t = await newTenant(env);
    expect(await thread(t, ['not_interested', 'cold'])).toEqual(['not_interested', 'not_interested']);
  });

  it('an explicit no always wins, also after a neutral follow-up kept a hot lead', async () => {
    const t = await newTenant(env);
    expect(await thread(t, ['hot', 'cold', 'not_interested'])).toEqual(['hot', 'hot', 'not_interested']);
    expect(await thread(t, ['warm', 'not_interested'])).toEqual(['warm', 'not_interested']);
  });

  it('a later hot or warm always wins, whatever came before', async () => {
    const t = await newTenant(env);
    expect(await thread(t, ['warm', 'cold', 'hot'])).toEqual(['warm', 'warm', 'hot']);
    expect(await thread(t, ['hot', 'cold', 'warm'])).toEqual(['hot', 'hot', 'warm']);
    expect(await thread(t, ['not_interested', 'cold', 'hot'])).toEqual(['not_interested', 'not_interested', 'hot']);
    expect(await thread(t, ['cold', 'warm'])).toEqual(['cold', 'warm']);
    expect(await thread(t, ['ooo', 'hot'])).toEqual(['ooo', 'hot']);
  });

  it('an auto-reply never overwrites, and a first reply that is one is kept as ooo until a human answers', async () => {
    const t = await newTenant(env);
    expect(await thread(t, ['hot', 'ooo', 'cold'])).toEqual(['hot', 'hot', 'hot']);
    expect(await thread(t, ['not_interested', 'ooo'])).toEqual(['not_interested', 'not_interested']);
    expect(await thread(t, ['cold', 'ooo'])).toEqual(['cold', 'cold']);
    expect(await thread(t, ['ooo', 'cold'])).toEqual(['ooo', 'cold']);
  });

  it('a long thread keeps the strongest recent intent', async () => {
    const t = await newTenant(env);
    expect(await thread(t, ['cold', 'warm', 'ooo', 'who', 'hot', 'cold', 'ooo', 'referral', 'not_interested', 'cold'])).toEqual([
      'cold', 'warm', 'warm', 'warm', 'hot', 'hot', 'hot', 'hot', 'not_interested', 'not_interested',
    ]);
  });

  it('each reply keeps its own classification; only the lead merges', async () => {
    const t = await newTenant(env);
    const email = 'own@prospect.com';
    expect(await thread(t, ['hot', 'cold'], email)).toEqual(['hot', 'hot']);
    const replies = (await t.call('GET', '/v1/replies?limit=100')).json.replies.filter((r: any) => r.from_email === email);
    expect(replies.map((r: any) => r.classification).sort()).toEqual(['cold', 'hot']);
  });

  it('the booked call that went cold: a German addition after a hot reply keeps the lead hot', async () => {
    const t = await newTenant(env);
    const email = 'kurz@prospect.de';
    await t.reply({ from_email: email, body: SAY.hot, received_at: '2026-11-01T09:00:00Z' });
    await t.reply({ from_email: email, body: 'Kurze Ergänzung: bitte auch meinen Kollegen Thomas einladen', received_at: '2026-11-02T09:00:00Z' });
    expect(await leadClass(t, email)).toBe('hot');
  });
});

describe('PATCH /v1/leads/{id} and the next reply', () => {
  async function patched(t: Tenant, first: Said, to: string) {
    const email = `patched${++seq}@prospect.com`;
    const { reply } = await t.reply({ from_email: email, body: SAY[first], received_at: '2026-11-01T09:00:00Z' });
    const r = await t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: to } });
    expect(r.status).toBe(200);
    expect(await leadClass(t, email)).toBe(to);
    return email;
  }
  const next = (t: Tenant, email: string, s: Said) =>
    t.reply({ from_email: email, body: SAY[s], received_at: '2026-11-05T09:00:00Z' });

  it('a manual hot stands through a neutral reply and an auto-reply', async () => {
    const t = await newTenant(env);
    const email = await patched(t, 'who', 'hot');
    await next(t, email, 'ooo');
    expect(await leadClass(t, email)).toBe('hot');
    await next(t, email, 'cold');
    expect(await leadClass(t, email)).toBe('hot');
  });

  it('a manual warm stands through a neutral reply; a later explicit no replaces it', async () => {
    const t = await newTenant(env);
    const email = await patched(t, 'cold', 'warm');
    await next(t, email, 'referral');
    expect(await leadClass(t, email)).toBe('warm');
    await next(t, email, 'not_interested');
    expect(await leadClass(t, email)).toBe('not_interested');
  });

  it('a manual correction is replaced by the next reply that states an intent', async () => {
    const t = await newTenant(env);
    const down = await patched(t, 'hot', 'cold');
    await next(t, down, 'cold');
    expect(await leadClass(t, down)).toBe('cold');
    await next(t, down, 'warm');
    expect(await leadClass(t, down)).toBe('warm');
    const up = await patched(t, 'cold', 'hot');
    await next(t, up, 'cold');
    expect(await leadClass(t, up)).toBe('hot');
  });
});
