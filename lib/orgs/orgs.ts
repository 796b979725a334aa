import { eq } from 'drizzle-orm';
import { creditLedger, organizations } from '../../schema';
import type { OrgFeatures } from '../../schema';
import { writeAudit } from '../agency/audit';
import { keysChanged, type KeyDirectory } from '../auth/keys';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { notFound } from '../errors';
import { changesBetween } from './changes';
import { requireTimeZone } from './timezone';

// Organizations as the owner's app sets them up (operator.md §3, agency-operator.md §5): features, the demo flag
// and the agency account's plan settings.

const DEFAULT_FEATURES: OrgFeatures = { crm: false, agency_tools: false, studio: false };

/** The agency account's settings (agency-operator.md §5); absent on create = the defaults of the table. */
export type OrgSettings = {
  client_limit?: number;
  /** The credit balance: set, not added to. Every move of it is a credit_ledger row. */
  credits?: number;
  paying?: boolean;
  /** An IANA name; plan steps run at 08:00 there. */
  timezone?: string;
  push_gate_open?: boolean;
  studio_paused?: boolean;
};
export type CreateOrgInput = { name: string; features?: Partial<OrgFeatures>; demo?: boolean } & OrgSettings;
export type UpdateOrgInput = { name?: string; features?: Partial<OrgFeatures>; demo?: boolean } & OrgSettings;

export const orgView = (o: typeof organizations.$inferSelect) => ({
  id: o.id,
  name: o.name,
  features: o.features,
  demo: o.demo,
  client_limit: o.clientLimit,
  credits: o.credits,
  paying: o.paying,
  timezone: o.timezone,
  push_gate_open: o.pushGateOpen,
  studio_paused: o.studioPaused,
});

/** The settings columns an input changes (only the given ones). */
function settingsColumns(input: OrgSettings) {
  return {
    ...(input.client_limit !== undefined && { clientLimit: input.client_limit }),
    ...(input.credits !== undefined && { credits: input.credits }),
    ...(input.paying !== undefined && { paying: input.paying }),
    ...(input.timezone !== undefined && { timezone: requireTimeZone(input.timezone) }),
    ...(input.push_gate_open !== undefined && { pushGateOpen: input.push_gate_open }),
    ...(input.studio_paused !== undefined && { studioPaused: input.studio_paused }),
  };
}

/**
 * A balance the admin set, as a ledger row of the difference: with it the ledger explains every balance (the sum
 * of an organization's ledger amounts is its balance). The reference is unique like every ledger reference.
 */
async function recordBalanceSet(tx: Db, orgId: string, from: number, to: number, reason: 'admin.opening_balance' | 'admin.set_balance', now: Date) {
  if (from === to) return null;
  const reference = `admin:${crypto.randomUUID()}`;
  await tx.insert(creditLedger).values({ orgId, keyId: null, reference, amount: to - from, balanceAfter: to, reason, at: now });
  return reference;
}

/**
 * Creates an organization; its opening balance is a ledger row. The creation itself is no audit row: the audit log
 * starts empty and holds what happened to the account after setup (the organization row says when it began).
 */
export async function createOrg(db: Db, input: CreateOrgInput, now = new Date()) {
  const settings = settingsColumns(input);
  return db.transaction(async (tx) => {
    const [org] = await tx
      .insert(organizations)
      .values({ name: input.name, features: { ...DEFAULT_FEATURES, ...input.features }, demo: input.demo ?? false, ...settings })
      .returning();
    await recordBalanceSet(tx, org.id, 0, org.credits, 'admin.opening_balance', now);
    return orgView(org);
  });
}

/**
 * Changes an organization under its row lock; a changed balance is a ledger row of the difference (reason
 * admin.set_balance). Each change is one Decision Trail row and one audit row (actor admin), in the transaction.
 * `keys`: after the commit, the organization's existing keys see the change on their next request (features).
 */
export async function updateOrg(db: Db, orgId: string, input: UpdateOrgInput, now = new Date(), keys?: KeyDirectory) {
  const settings = settingsColumns(input);
  const view = await db.transaction(async (tx) => {
    // The lock also orders a balance set against concurrent charges: a charge either moved the balance before this
    // read (and the difference recorded here accounts for it) or waits and moves the balance that was set.
    const [org] = await tx.select().from(organizations).where(eq(organizations.id, orgId)).for('no key update');
    if (!org) throw notFound('organization');
    const [updated] = await tx
      .update(organizations)
      .set({ features: { ...org.features, ...input.features }, demo: input.demo ?? org.demo, name: input.name ?? org.name, ...settings })
      .where(eq(organizations.id, orgId))
      .returning();
    const changes = changesBetween(orgView(org), orgView(updated));
    if (Object.keys(changes).length === 0) return orgView(updated);
    const ledgerReference = await recordBalanceSet(tx, orgId, org.credits, updated.credits, 'admin.set_balance', now);
    const detail = ledgerReference ? { changes, ledger_reference: ledgerReference } : { changes };
    // Features switch whole APIs on (crm, agency tools): who changed them and when belongs in the trail.
    await recordDecision(tx, { orgId, actor: 'admin', action: 'org.updated', detail, at: now });
    await writeAudit(tx, { orgId, actor: 'admin', action: 'org.updated', target: `org:${orgId}`, detail, at: now });
    return orgView(updated);
  });
  await keysChanged(keys, orgId);
  return view;
}
