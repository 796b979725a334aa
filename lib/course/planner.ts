import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { agreements, clients, organizations, planLog, planSteps, poolLeads } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgreementRow } from '../agreements/view';
import type { Db } from '../db/types';
import { proposeStep } from '../plans/propose';
import { stepKind } from '../plans/registry';
import { inTx, PENDING_STEP } from '../plans/rows';
import type { Services } from '../services';
import { MAX_RUN_LEADS } from '../waterfall/selection';
import { courseOf, type CourseEntry } from './compute';
import type { CourseStatus } from './rule';

/** Only an agreement this far behind gets catch-up steps; `at risk` shows in get_course and waits. */
export const CATCH_UP_STATUSES: CourseStatus[] = ['off track'];
export const PLANNER_ACTOR = 'system';

const KIND_TEXT: Record<string, string> = {
  new_prospects_per_workday: 'new prospects',
  replies_per_month: 'replies',
  meetings_per_month: 'booked meetings',
};

export type CatchUpOutcome = { org_id: string; client_id: string; agreement_id: string; day: string; outcome: 'proposed' | 'already_proposed'; step_ids: string[] };

/** The text of the reminder step: what is behind, by how much, and what closing the gap takes. */
export function catchUpText(clientName: string, e: CourseEntry): string {
  const { agreement: a, figures: f } = e;
  const what = KIND_TEXT[a.kind] ?? a.kind;
  const per = f.units_left > 0 ? Math.ceil((f.still_needed / f.units_left) * 10) / 10 : f.still_needed;
  const parts = [
    `Catch up on ${what} for ${clientName}: ${f.actual} so far this month against ${f.expected_to_date} expected by today (agreed: ${Number(a.target)} per ${a.kind === 'new_prospects_per_workday' ? 'workday' : 'month'}).`,
    f.units_left > 0
      ? `Closing the month needs ${f.still_needed} more, about ${per} a ${f.unit} over the ${f.units_left} ${f.unit}s left.`
      : `The month ends today; ${f.still_needed} are missing.`,
  ];
  if (f.carried > 0) parts.push(`That includes ${f.carried} carried over from earlier months (catch-up: spread).`);
  else if (a.catchUp === 'drop') parts.push('Whatever is still missing at the end of the month is dropped (catch-up: drop).');
  return parts.join(' ');
}

/**
 * Catch-up steps this planner proposed for an agreement: each step with the day it was proposed on. The marker is
 * the plan-log detail the proposal carries (`catch_up.agreement_id`), so no step kind has to know about agreements.
 */
async function earlierCatchUps(tx: Db, orgId: string, agreementId: string) {
  return tx
    .select({ stepId: planLog.stepId, day: sql<string>`${planLog.detail} -> 'catch_up' ->> 'day'`, status: planSteps.status })
    .from(planLog)
    .innerJoin(planSteps, eq(planSteps.id, planLog.stepId))
    .where(and(eq(planLog.orgId, orgId), eq(planLog.action, 'step_added'), sql`${planLog.detail} -> 'catch_up' ->> 'agreement_id' = ${agreementId}`));
}

/** The steps that fit an agreement's shortfall: always a reminder; finding emails when leads wait for one. */
async function catchUpSteps(db: Db, clientName: string, e: CourseEntry): Promise<{ kind: string; params: Record<string, unknown> }[]> {
  const steps: { kind: string; params: Record<string, unknown> }[] = [{ kind: 'note', params: { text: catchUpText(clientName, e) } }];
  const finder = stepKind('find_emails');
  if (e.agreement.kind === 'new_prospects_per_workday' && finder) {
    const [w] = await db
      .select({ n: sql<number>`count(*)::int` })
      .from(poolLeads)
      .where(and(eq(poolLeads.orgId, e.agreement.orgId), eq(poolLeads.clientId, e.agreement.clientId), eq(poolLeads.status, 'waiting_for_email')));
    const waiting = Number(w?.n ?? 0);
    if (waiting > 0) {
      // Up to the shortfall: every email found costs a credit, and more leads than the month needs can wait.
      const params = { max_leads: Math.max(1, Math.min(waiting, Math.ceil(e.figures.still_needed), MAX_RUN_LEADS)) };
      // The finder's parameters belong to its step kind; a shape it does not take leaves the reminder alone.
      if (finder.params.safeParse(params).success) steps.push({ kind: 'find_emails', params });
    }
  }
  return steps;
}

/**
 * Proposes one agreement's catch-up into its client's open plan, unless the planner already proposed one for it
 * today or an earlier one is still pending (waiting, approved or scheduled). The check and the proposal share a
 * transaction under the client's row lock, so a tick delivered twice proposes once.
 */
async function proposeCatchUp(services: Services, e: CourseEntry, now: Date): Promise<CatchUpOutcome> {
  const a = e.agreement;
  const base = { org_id: a.orgId, client_id: a.clientId, agreement_id: a.id, day: e.today };
  return services.db.transaction(async (tx) => {
    const client = await findClient(tx, a.orgId, a.clientId, true);
    const earlier = await earlierCatchUps(tx, a.orgId, a.id);
    const blocking = earlier.filter((s) => s.day === e.today || PENDING_STEP.includes(s.status));
    if (blocking.length > 0) return { ...base, outcome: 'already_proposed' as const, step_ids: blocking.map((s) => s.stepId!) };
    const who = { services: inTx(services, tx), orgId: a.orgId, actor: PLANNER_ACTOR, now, detail: { catch_up: { agreement_id: a.id, day: e.today, status: e.figures.status } } };
    const stepIds: string[] = [];
    for (const s of await catchUpSteps(tx, client.name, e)) {
      const out = await proposeStep(who, { client_id: a.clientId, kind: s.kind, params: s.params, day: 0, title: `Catch-up plan for ${client.name}`, note: 'course catch-up' });
      stepIds.push(out.step.id);
    }
    return { ...base, outcome: 'proposed' as const, step_ids: stepIds };
  });
}

/**
 * The daily catch-up planner: for every organization with the Studio module (not paused), each active agreement
 * that is off track gets catch-up steps in its client's plan. Nothing is bought or run: the steps wait for the
 * assistant's or a person's approval like any other. `only` narrows to some organizations (the tick passes those
 * whose local morning it is).
 */
export async function planCatchUp(services: Services, now: Date, only?: { orgIds?: readonly string[] }): Promise<CatchUpOutcome[]> {
  const { db } = services;
  const where = [
    eq(agreements.active, true),
    ne(agreements.kind, 'custom'),
    sql`(${organizations.features} ->> 'studio')::boolean is true`,
    eq(organizations.studioPaused, false),
  ];
  if (only?.orgIds) {
    if (only.orgIds.length === 0) return [];
    where.push(inArray(agreements.orgId, [...only.orgIds]));
  }
  const rows = await db
    .select({ a: agreements, timezone: organizations.timezone })
    .from(agreements)
    .innerJoin(organizations, eq(organizations.id, agreements.orgId))
    .innerJoin(clients, and(eq(clients.id, agreements.clientId), eq(clients.orgId, agreements.orgId)))
    .where(and(...where))
    .orderBy(agreements.orgId, agreements.clientId, agreements.kind);
  const byZone = new Map<string, AgreementRow[]>();
  for (const r of rows) byZone.set(r.timezone, [...(byZone.get(r.timezone) ?? []), r.a]);
  const out: CatchUpOutcome[] = [];
  for (const [zone, list] of byZone) {
    for (const e of await courseOf(db, zone, list, now)) {
      if (!CATCH_UP_STATUSES.includes(e.figures.status)) continue;
      out.push(await proposeCatchUp(services, e, now));
    }
  }
  return out;
}
