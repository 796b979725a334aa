import { eq } from 'drizzle-orm';
import { leads, type Deal, type NextAction } from '../../schema';
import type { AuthContext } from '../auth/keys';
import type { Db } from '../db/types';
import { recordDecision } from '../decisions/record';
import { ApiError, notFound } from '../errors';
import { applyCrmWriteToFollowups } from '../followups/crm_effects';
import type { Limits } from '../limits/port';
import { isRefused, type Refused } from '../sending/types';
import { claimCrmWrite, crmTenantOf } from './access';
import { stampLeadChange } from './change_clock';
import { findCrmLeadForUpdate } from './get_lead';
import { crmLeadView, selectCrmLeads, type CrmLead, type CrmTenant } from './view';

export const PHASES = ['new', 'contacted', 'discovery', 'proposal', 'negotiation', 'won', 'lost'] as const;
export type Phase = (typeof PHASES)[number];

export type CrmPatch = {
  phase?: Phase;
  deal?: Deal | null;
  next_action?: NextAction | null;
  /** The `crm_updated_at` the caller last read; null = "only if no CRM write happened yet". */
  if_updated_at?: string | null;
};

export type CrmWriteDeps = { db: Db; limits: Limits; auth: AuthContext; now: Date; portalUrl: string };

const sameDeal = (a: Deal | null, b: Deal | null) => (a === null || b === null ? a === b : a.value === b.value && a.currency === b.currency);
const sameAction = (a: NextAction | null, b: NextAction | null) => (a === null || b === null ? a === b : a.date === b.date && a.note === b.note);

/** The lead as the CRM sees it, read inside the write's transaction (its own changes included). */
export async function crmLeadInTx(tx: Db, tenant: CrmTenant, leadId: string, portalUrl: string): Promise<CrmLead> {
  const [row] = await selectCrmLeads(tx, tenant, { where: eq(leads.id, leadId), limit: 1 });
  // A portal switch or client move committed since the lead was locked hides it: not found (rolls back), not a 500.
  if (!row) throw notFound('lead');
  return crmLeadView(row, portalUrl);
}

/** True when a CRM write happened after the `crm_updated_at` the caller read. */
export function isStale(crmUpdatedAt: Date | null, ifUpdatedAt: string | null): boolean {
  if (crmUpdatedAt === null) return false;
  return ifUpdatedAt === null || crmUpdatedAt.getTime() > Date.parse(ifUpdatedAt);
}

/**
 * PATCH /v1/crm/leads/{id} (core §3, §4 rule 3). With `if_updated_at`, a lead whose CRM part changed since is
 * refused with 409 `conflict` carrying the current lead, and nothing is written. Without it the last write wins
 * and the Decision Trail keeps both sides (what was overwritten and what replaced it). A write that changes
 * nothing writes nothing (a CRM re-pushing its state must not churn `updated_at` or the trail). The change, its
 * follow-up effects, its trail row and the change stamp commit together.
 */
export async function updateCrmLead({ deps, leadId, input }: { deps: CrmWriteDeps; leadId: string; input: CrmPatch }): Promise<CrmLead> {
  const { db, auth, now, portalUrl } = deps;
  const tenant = crmTenantOf(auth);
  await claimCrmWrite(deps.limits, auth.keyId);
  const result = await db.transaction(async (tx): Promise<CrmLead | Refused> => {
    const lead = await findCrmLeadForUpdate(tx, tenant, leadId);
    if (input.if_updated_at !== undefined && isStale(lead.crmUpdatedAt, input.if_updated_at)) {
      const current = await crmLeadInTx(tx, tenant, lead.id, portalUrl);
      return { refused: new ApiError('conflict', `the lead's CRM fields changed at ${current.crm_updated_at}, after if_updated_at; nothing was written`, { body: { lead: current } }) };
    }
    const { set, from, to } = crmChanges(lead, input);
    if (Object.keys(to).length === 0) return crmLeadInTx(tx, tenant, lead.id, portalUrl);

    await tx.update(leads).set(set).where(eq(leads.id, lead.id));
    const closedAs = to.phase === 'won' || to.phase === 'lost' ? (to.phase as 'won' | 'lost') : null;
    const followups = await applyCrmWriteToFollowups(tx, { orgId: auth.orgId, leadId: lead.id, keyName: auth.keyName, closedAs, now });
    await recordDecision(tx, {
      orgId: auth.orgId,
      actor: auth.keyName,
      action: 'crm.lead_updated',
      leadId: lead.id,
      detail: {
        key_id: auth.keyId,
        changed: Object.keys(to),
        from,
        to,
        policy: input.if_updated_at !== undefined ? 'if_updated_at' : 'last_write_wins',
        overwrote_crm_updated_at: lead.crmUpdatedAt?.toISOString() ?? null,
        followups,
      },
      at: now,
    });
    return stamped(tx, tenant, lead.id, portalUrl);
  });
  if (isRefused(result)) throw result.refused;
  return result;
}

/** The fields the patch really changes, with their old and new values (both sides go to the Decision Trail). */
function crmChanges(lead: typeof leads.$inferSelect, input: CrmPatch) {
  const set: Partial<typeof leads.$inferInsert> = {};
  const from: Record<string, unknown> = {};
  const to: Record<string, unknown> = {};
  if (input.phase !== undefined && input.phase !== lead.phase) {
    set.phase = input.phase;
    from.phase = lead.phase;
    to.phase = input.phase;
  }
  if (input.deal !== undefined && !sameDeal(input.deal, lead.deal)) {
    set.deal = input.deal;
    from.deal = lead.deal;
    to.deal = input.deal;
  }
  if (input.next_action !== undefined && !sameAction(input.next_action, lead.nextAction)) {
    set.nextAction = input.next_action;
    from.next_action = lead.nextAction;
    to.next_action = input.next_action;
  }
  return { set, from, to };
}

/** Reads the view, then stamps the change as the transaction's last statement (change_clock.ts) and shows it. */
export async function stamped(tx: Db, tenant: CrmTenant, leadId: string, portalUrl: string): Promise<CrmLead> {
  const view = await crmLeadInTx(tx, tenant, leadId, portalUrl);
  const at = (await stampLeadChange(tx, tenant.orgId, [leadId], { crm: true })).toISOString();
  return { ...view, updated_at: at, crm_updated_at: at };
}
