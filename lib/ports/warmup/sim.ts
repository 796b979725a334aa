// The simulated warm-up and health provider (agency-operator.md §6): each mailbox's day is a function of SHA-256 of
// SIM_SEED, its address and the day, never of chance, so the daily tick parks the same mailboxes on every run.
//
// - Sent: warm-up mail grows with the mailbox's age (min(5 + age_days, 25) a day) plus its sending cap; parked: nothing.
// - Bounced: a base rate of 0–1 % of what it sent (rounded, so a healthy mailbox stays under 2 % over any 7 days).
// - About 5 % of mailboxes (by hash of the address) fail in their second week of sending (sending days 8–14): 6 %.
// - A mailbox on a domain starting `fail-` bounces 5 % of what it sends (at least one), and nothing while parked.
// - Overrides injected by an owner or a test (PUT /admin/v1/orgs/{org_id}/sim/health), by address first, then by
//   domain: `bounce_rate` replaces the rate, `listed` marks the domain listed, `disconnected` drops the connection.
import { and, eq } from 'drizzle-orm';
import { simHealthOverrides } from '../../../schema';
import { sha256Hex } from '../../crypto/secrets';
import type { Db } from '../../db/types';
import type { PortDeps } from '../registrar/port';
import type { HealthDay, HealthInput, WarmupHealth } from './port';

export const WARMUP_MIN_PER_DAY = 5;
export const WARMUP_MAX_PER_DAY = 25;
/** Mailboxes per 10,000 that fail in their second week of sending. */
const WEEK2_FAILING_PER_10K = 500;
export const WEEK2_BOUNCE_RATE = 0.06;
export const FAIL_DOMAIN_BOUNCE_RATE = 0.05;
const BASE_RATE_MAX = 0.01;

type Override = { bounceRate: number | null; listed: boolean | null; disconnected: boolean | null };

export const warmupVolume = (ageDays: number) => Math.min(WARMUP_MIN_PER_DAY + Math.max(0, ageDays), WARMUP_MAX_PER_DAY);

/** Whether this mailbox is one of the ~5 % that fail in their second week of sending. */
export async function failsInWeek2(seed: string, address: string): Promise<boolean> {
  const hash = await sha256Hex(`${seed}|health-week2|${address.toLowerCase()}`);
  return parseInt(hash.slice(0, 8), 16) % 10_000 < WEEK2_FAILING_PER_10K;
}

async function baseRate(seed: string, address: string, day: string): Promise<number> {
  const hash = await sha256Hex(`${seed}|health-base|${address.toLowerCase()}|${day}`);
  return ((parseInt(hash.slice(0, 8), 16) % 10_000) / 10_000) * BASE_RATE_MAX;
}

export function createSimWarmupHealth(seed: string): WarmupHealth {
  return {
    kind: 'sim',
    async health(deps: PortDeps, orgId: string, day: string, inputs: HealthInput[]): Promise<HealthDay[]> {
      if (!inputs.length) return [];
      // One read per call, not per mailbox: the daily tick asks for thousands at once.
      const overrides = new Map<string, Override>(
        (await deps.db.select().from(simHealthOverrides).where(eq(simHealthOverrides.orgId, orgId))).map((o) => [o.target.toLowerCase(), o]),
      );
      return Promise.all(
        inputs.map(async (m): Promise<HealthDay> => {
          const address = m.address.toLowerCase();
          const domain = m.domain.toLowerCase();
          const own = overrides.get(address);
          const dom = overrides.get(domain);
          const pick = <K extends keyof Override>(k: K): Override[K] => own?.[k] ?? dom?.[k] ?? null;
          const sent = m.parked ? 0 : warmupVolume(m.age_days) + Math.max(0, m.cap);
          const connected = pick('disconnected') !== true;
          const domain_listed = pick('listed') === true;

          let bounced = 0;
          const forced = pick('bounceRate');
          if (sent > 0) {
            if (forced !== null) bounced = Math.round(sent * forced);
            else if (domain.startsWith('fail-')) bounced = Math.max(1, Math.ceil(sent * FAIL_DOMAIN_BOUNCE_RATE));
            else if (m.sending_day >= 8 && m.sending_day <= 14 && (await failsInWeek2(seed, address))) bounced = Math.max(1, Math.round(sent * WEEK2_BOUNCE_RATE));
            else bounced = Math.round(sent * (await baseRate(seed, address, day)));
          }
          return { mailbox_id: m.mailbox_id, sent, bounced: Math.min(bounced, sent), connected, domain_listed };
        }),
      );
    },
  };
}

export type HealthOverrideInput = { target: string; bounce_rate?: number | null; listed?: boolean | null; disconnected?: boolean | null };
export type HealthOverrideView = { target: string; bounce_rate: number | null; listed: boolean | null; disconnected: boolean | null; at: string };

const viewOf = (o: typeof simHealthOverrides.$inferSelect): HealthOverrideView => ({
  target: o.target,
  bounce_rate: o.bounceRate,
  listed: o.listed,
  disconnected: o.disconnected,
  at: o.at.toISOString(),
});

/** Upserts one organization's override for an address or a domain: each field given replaces that field (null clears it). */
export async function putHealthOverride(db: Db, orgId: string, input: HealthOverrideInput): Promise<HealthOverrideView> {
  const target = input.target.trim().toLowerCase();
  const given = {
    ...(input.bounce_rate !== undefined && { bounceRate: input.bounce_rate }),
    ...(input.listed !== undefined && { listed: input.listed }),
    ...(input.disconnected !== undefined && { disconnected: input.disconnected }),
  };
  const [row] = await db
    .insert(simHealthOverrides)
    .values({ orgId, target, ...given })
    .onConflictDoUpdate({ target: [simHealthOverrides.orgId, simHealthOverrides.target], set: { ...given, at: new Date() } })
    .returning();
  return viewOf(row);
}

/** Removes one override; false when there was none. */
export async function deleteHealthOverride(db: Db, orgId: string, target: string): Promise<boolean> {
  const removed = await db
    .delete(simHealthOverrides)
    .where(and(eq(simHealthOverrides.orgId, orgId), eq(simHealthOverrides.target, target.trim().toLowerCase())))
    .returning({ id: simHealthOverrides.id });
  return removed.length > 0;
}
