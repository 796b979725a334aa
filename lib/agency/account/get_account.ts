import { eq, sql } from 'drizzle-orm';
import { z } from 'zod';
import { organizations, sendingProviders } from '../../../schema';
import { rows } from '../../db/types';
import { notFound } from '../../errors';
import type { AgencyCall } from '../operation';

export const AccountSchema = z.object({
  organization: z.object({ id: z.string(), name: z.string(), demo: z.boolean(), timezone: z.string() }),
  plan: z.object({ name: z.string(), client_limit: z.number().int(), clients_used: z.number().int(), paying: z.boolean() }),
  credits: z.object({ balance: z.number().int() }),
  sending_accounts: z.array(z.object({ provider: z.string(), label: z.string() })),
  adapters: z.record(z.string(), z.string()),
});

const PROVIDER_LABELS: Record<string, string> = {
  outbox: 'Outbox (embedded: records mails, delivers none)',
  http: 'Own sending service (HTTP)',
  instantly: 'Instantly',
  smartlead: 'Smartlead',
};

/** The agency account at a glance: no key, secret or provider URL is ever part of it. */
export async function getAccount(call: AgencyCall) {
  const { db, config } = call.services;
  const [org] = await db.select().from(organizations).where(eq(organizations.id, call.auth.orgId));
  if (!org) throw notFound('organization');
  const [{ n }] = await rows<{ n: number }>(db, sql`SELECT count(*)::int AS n FROM clients WHERE org_id = ${org.id}::uuid`);
  const [provider] = await db.select({ kind: sendingProviders.kind }).from(sendingProviders).where(eq(sendingProviders.orgId, org.id));
  const kind = provider?.kind ?? 'outbox';
  return {
    organization: { id: org.id, name: org.name, demo: org.demo, timezone: org.timezone },
    plan: { name: org.paying ? 'paying' : 'trial', client_limit: org.clientLimit, clients_used: Number(n), paying: org.paying },
    credits: { balance: org.credits },
    sending_accounts: [{ provider: kind, label: PROVIDER_LABELS[kind] ?? kind }],
    adapters: adaptersOf(config as unknown as Record<string, unknown>),
  };
}

/** Which adapter serves each port in this deployment (embedded or production), as configuration chose it. */
function adaptersOf(config: Record<string, unknown>): Record<string, string> {
  const pick = (k: string, fallback: string) => (typeof config[k] === 'string' && config[k] ? String(config[k]) : fallback);
  return {
    database: config.DATABASE_URL ? 'neon' : 'pglite',
    limits: config.UPSTASH_REDIS_REST_URL ? 'upstash' : 'memory',
    queue: config.QSTASH_TOKEN ? 'qstash' : 'database',
    ai: pick('AI_PROVIDER', 'offline'),
    clock: pick('CLOCK', 'wall'),
    dns: pick('DNS', 'sim'),
    email_finder: pick('EMAIL_FINDER', 'sim'),
    table_tool: pick('TABLE_TOOL', 'sim'),
    enrichment: pick('ENRICHMENT', 'sim'),
    registrar: pick('REGISTRAR', 'sim'),
    dns_records: pick('DNS_RECORDS', 'sim'),
    mailbox_provider: pick('MAILBOX_PROVIDER', 'sim'),
    warmup: pick('WARMUP', 'sim'),
    sequencer: pick('SEQUENCER', 'sim'),
  };
}
