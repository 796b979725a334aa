// CRM writes while the owner changes what the client's portal shows, on real PostgreSQL (Neon driver, a pool of 10).
// A CRM write checks the lead's visibility when it locks the lead, and reads the lead back (to answer) after writing.
// A portal switch committed in between hid the lead from that read: the write crashed with a 500 (TypeError)
// instead of answering. PGlite runs one transaction at a time and cannot show it.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { crmNotes } from '../../schema';
import { TIER, startTestEnv } from '../helpers/harness';
import { webhookSuite } from '../helpers/webhook_env';
import { crmTenant } from '../api/crm_helpers';

const { env } = webhookSuite({ integrationOnly: true, start: startTestEnv });

const ROUNDS = 6; // 48 writes: under the key's 60 CRM writes a minute
const tally = (statuses: number[]) => statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.skipIf(TIER !== 'integration')('CRM writes racing portal switches (real PostgreSQL)', () => {
  it(`updates and notes on a cold lead while cold leads are hidden and shown again, ${ROUNDS} rounds: each write answers 200/201 or 404`, async () => {
    const t = await crmTenant(env);
    const statuses: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const { leadId } = await t.lead({ classification: 'cold' });
      await Promise.all([
        ...Array.from({ length: 4 }, (_, i) => t.crm('PATCH', `/v1/crm/leads/${leadId}`, { deal: { value: round * 10 + i + 1, currency: 'EUR' } }).then((r) => statuses.push(r.status))),
        ...Array.from({ length: 4 }, (_, i) => t.crm('POST', `/v1/crm/leads/${leadId}/notes`, { text: `note ${i}` }).then((r) => statuses.push(r.status))),
        ...Array.from({ length: 4 }, (_, i) =>
          t.admin('PATCH', `/admin/v1/clients/${t.client.id}`, { portal: { show_cold: i % 2 === 1 } }).then((r) => expect(r.status).toBe(200)),
        ),
      ]);
      expect((await t.admin('PATCH', `/admin/v1/clients/${t.client.id}`, { portal: { show_cold: true } })).status).toBe(200);
    }
    const counts = tally(statuses);
    expect(counts[500] ?? 0).toBe(0);
    expect(Object.keys(counts).every((s) => ['200', '201', '404'].includes(s))).toBe(true);
    // A write answered 404 left nothing behind: one note row per 201.
    const notes = await env.services.db.select({ id: crmNotes.id }).from(crmNotes).where(eq(crmNotes.orgId, t.org.id));
    expect(notes).toHaveLength(counts[201] ?? 0);
  });
});
