// The one way infrastructure steps enter a plan: choose_domains' confirm and auto-protect's tick (a reserve to buy)
// both add buy / DNS / mailbox steps here, so their days and params are the same whoever proposes them.
import type { Db } from '../db/types';
import { proposeStepsIn, type StepRequest } from '../plans/propose';
import type { PlanActor, PlanRow } from '../plans/rows';
import { stepView, type StepView } from '../plans/view';
import { INFRA_STEP_DAYS } from './step_params';

export type InfraStepRequest = { buy?: { domain: string; max_price_cents: number }[]; mailboxes?: { domain: string; count: number }[]; dns?: { domain: string }[] };

/** The requests in plan order: per domain its purchase, then its DNS, then its mailboxes (a domain's steps together). */
export function infraStepRequests(req: InfraStepRequest): StepRequest[] {
  const order: string[] = [];
  const seen = (d: string) => (order.includes(d) ? null : order.push(d));
  for (const b of req.buy ?? []) seen(b.domain);
  for (const d of req.dns ?? []) seen(d.domain);
  for (const m of req.mailboxes ?? []) seen(m.domain);
  const out: StepRequest[] = [];
  for (const domain of order) {
    for (const b of (req.buy ?? []).filter((x) => x.domain === domain)) out.push({ kind: 'buy_domain', params: { domain, max_price_cents: b.max_price_cents }, day: INFRA_STEP_DAYS.buy_domain });
    for (const _ of (req.dns ?? []).filter((x) => x.domain === domain)) out.push({ kind: 'setup_dns', params: { domain }, day: INFRA_STEP_DAYS.setup_dns });
    for (const m of (req.mailboxes ?? []).filter((x) => x.domain === domain)) out.push({ kind: 'create_mailboxes', params: { domain, count: m.count }, day: INFRA_STEP_DAYS.create_mailboxes });
  }
  return out;
}

/** Adds the steps to the client's open plan (creating it) inside `tx`; returns the added steps. Days from INFRA_STEP_DAYS. */
export async function proposeInfraSteps(tx: Db, who: PlanActor, clientId: string, req: InfraStepRequest, opts: { audit?: boolean; title?: string } = {}): Promise<StepView[]> {
  return (await addInfraSteps(tx, who, clientId, req, opts)).steps;
}

/** proposeInfraSteps with the plan the steps went into (null when the request asked for nothing). */
export async function addInfraSteps(tx: Db, who: PlanActor, clientId: string, req: InfraStepRequest, opts: { audit?: boolean; title?: string } = {}): Promise<{ plan: PlanRow | null; steps: StepView[] }> {
  const requests = infraStepRequests(req);
  if (requests.length === 0) return { plan: null, steps: [] };
  const out = await proposeStepsIn(tx, who, clientId, requests, opts);
  return { plan: out.plan, steps: out.steps.map(stepView) };
}
