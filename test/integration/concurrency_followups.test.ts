// Planning follow-ups while the same reply is being written, on real PostgreSQL (Neon driver, a pool of 10); PGlite
// runs one transaction at a time and cannot show it. A follow-up row has foreign keys to its lead and its reply,
// whose checks take KEY SHARE locks lead first, then reply; sends, skips and lead updates lock the reply, then the
// lead (FOR UPDATE). Planning took the lead's lock, a writer took the reply's, each waited for the other: 40P01.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { followups } from '../../schema';
import { startTestEnv, TIER } from '../helpers/harness';
import { webhookSuite } from '../helpers/webhook_env';
import { newTenant } from '../helpers/tenant';
import { keyAt } from '../api/send_helpers';

const { env } = webhookSuite({ integrationOnly: true, start: startTestEnv });

const ROUNDS = 10;
const EACH = 4;
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.skipIf(TIER !== 'integration')('planning follow-ups while the reply is written (real PostgreSQL)', () => {
  it(`${EACH} plans racing ${EACH} lead updates and ${EACH} queued sends of one reply, ${ROUNDS} rounds: all succeed`, async () => {
    const t = await newTenant(env);
    const key = await keyAt(t, 0);
    const planned: number[] = [];
    const written: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { reply } = await t.reply();
      const due = new Date(env.clock.now().getTime() + 3_600_000).toISOString();
      const results = await Promise.all(
        Array.from({ length: EACH }, (_, i) => [
          t.admin('POST', `/admin/v1/orgs/${t.org.id}/followups`, { reply_id: reply.id, kind: 'followup', due_at: due, body: `nudge ${i}` }).then((r) => planned.push(r.status)),
          t.call('PATCH', `/v1/leads/${reply.id}`, { body: { classification: i % 2 ? 'hot' : 'warm' } }).then((r) => written.push(r.status)),
          t.call('POST', `/v1/replies/${reply.id}/send`, { key, body: { body: `draft ${i}` } }).then((r) => written.push(r.status)),
        ]).flat(),
      );
      expect(results).toHaveLength(EACH * 3);
    }
    expect({ planned: tally(planned), written: tally(written) }).toEqual({
      planned: { 201: ROUNDS * EACH },
      written: { 200: ROUNDS * EACH, 202: ROUNDS * EACH },
    });
    const rows = await env.services.db.select().from(followups).where(eq(followups.orgId, t.org.id));
    expect(rows).toHaveLength(ROUNDS * EACH);
  });
});
