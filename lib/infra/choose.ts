// choose_domains' two steps. It buys nothing: the preview checks each domain at the registrar and shows the steps
// it would add; the confirm adds them (buy, DNS, mailboxes per domain) to the client's one open plan, where only an
// approved step buys, on its day.
import { findClient } from '../agency/clients/view';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { whoOf } from '../plans/rows';
import { planView, stepSummary, type PlanView, type StepView } from '../plans/view';
import { domainClaims, type DomainClaim } from './domain_pending';
import { addInfraSteps, infraStepRequests, type InfraStepRequest } from './propose_steps';
import { readDomainRule } from './rule';

export type ChooseDomainsInput = { client_id: string; domains: string[]; mailboxes_per_domain?: number; confirm_token?: string };

export type ChosenDomain = { domain: string; available: boolean; price_cents: number | null; problem: string | null };
export type ChooseDomainsPreview = {
  domains: ChosenDomain[];
  steps: { kind: string; day: number; params: Record<string, unknown>; summary: string }[];
  total_price_cents: number;
  max_price_cents: number;
  mailboxes_per_domain: number;
  mailboxes: number;
  workspace: { id: string; name: string | null } | null;
  problems: string[];
  warnings: string[];
  simulated?: true;
};

const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

function problemOf(domain: string, q: { available: boolean; price_cents: number | null } | undefined, max: number, claim: DomainClaim | undefined, clientId: string): string | null {
  if (claim) {
    const whose = claim.client_id === clientId ? 'this client' : 'another client of the organization';
    return claim.by === 'bought' ? `${domain} is already bought by ${whose}.` : `${domain} is already in a plan of ${whose} waiting to be bought.`;
  }
  if (!q || !q.available) return `${domain} is not available at the registrar.`;
  if (q.price_cents === null) return `${domain} has no price at the registrar.`;
  if (q.price_cents > max) return `${domain} costs ${dollars(q.price_cents)} a year, above the domain rule's maximum of ${dollars(max)} (raise max_price_cents with set_domain_rule, or choose another).`;
  return null;
}

const chooseDomainsDef: TwoStepDef<ChooseDomainsInput, ChooseDomainsPreview, { plan: PlanView; steps: StepView[] }> = {
  tool: 'choose_domains',
  async preview(call, input, db) {
    const orgId = call.auth.orgId;
    await findClient(db, orgId, input.client_id, db !== call.services.db);
    const rule = await readDomainRule(db, orgId, input.client_id);
    const { registrar } = call.services.studio;
    const quotes = await registrar.check({ db }, input.domains);
    const byName = new Map(quotes.map((q) => [q.domain.toLowerCase(), q]));
    const claims = await domainClaims(db, orgId, input.domains);
    const perDomain = input.mailboxes_per_domain ?? rule.mailboxes_per_domain;
    const chosen: ChosenDomain[] = input.domains.map((domain) => {
      const q = byName.get(domain);
      return { domain, available: q?.available ?? false, price_cents: q?.price_cents ?? null, problem: problemOf(domain, q, rule.max_price_cents, claims.get(domain), input.client_id) };
    });
    const req: InfraStepRequest = {
      buy: input.domains.map((domain) => ({ domain, max_price_cents: rule.max_price_cents })),
      dns: input.domains.map((domain) => ({ domain })),
      mailboxes: input.domains.map((domain) => ({ domain, count: perDomain })),
    };
    const steps = infraStepRequests(req).map((r) => ({ kind: r.kind, day: r.day ?? 0, params: r.params ?? {}, summary: stepSummary({ kind: r.kind, params: r.params ?? {} }) }));
    const problems = chosen.flatMap((c) => (c.problem ? [c.problem] : []));
    const warnings = rule.workspace
      ? []
      : ['No domain workspace is chosen yet: choose one with set_domain_workspace before the plan is approved (the mailbox steps cannot run without it, and the plan\'s dry run says so).'];
    const preview: ChooseDomainsPreview = {
      domains: chosen,
      steps,
      total_price_cents: chosen.reduce((n, c) => n + (c.price_cents ?? 0), 0),
      max_price_cents: rule.max_price_cents,
      mailboxes_per_domain: perDomain,
      mailboxes: perDomain * chosen.length,
      workspace: rule.workspace,
      problems,
      warnings,
      ...((registrar.kind === 'sim' || quotes.some((q) => q.simulated)) && { simulated: true as const }),
    };
    return {
      preview,
      state: { domains: chosen, max: rule.max_price_cents, per_domain: perDomain },
      credits: 0,
      ...(problems.length && { blockedBy: 'dry_run_failed' as const, blockedMessage: `the chosen domains cannot be bought: ${problems.join(' ')}` }),
    };
  },
  async apply(call, input, tx, p) {
    const who = whoOf(call);
    const req: InfraStepRequest = {
      buy: p.preview.domains.map((d) => ({ domain: d.domain, max_price_cents: p.preview.max_price_cents })),
      dns: p.preview.domains.map((d) => ({ domain: d.domain })),
      mailboxes: p.preview.domains.map((d) => ({ domain: d.domain, count: p.preview.mailboxes_per_domain })),
    };
    // The confirm writes the one audit row of this decision; the plan log still records each added step.
    const added = await addInfraSteps(tx, who, input.client_id, req, { audit: false });
    const steps = added.steps;
    const plan = await planView(tx, added.plan!);
    return {
      result: { plan, steps },
      audit: {
        action: 'domains.chosen',
        target: `client:${input.client_id}`,
        detail: { plan_id: plan.id, domains: p.preview.domains.map((d) => ({ domain: d.domain, price_cents: d.price_cents })), steps: steps.map((s) => s.id), mailboxes_per_domain: p.preview.mailboxes_per_domain },
      },
    };
  },
};

/** Both calls of choose_domains: the preview (nothing bought, nothing added), or the plan with the added steps. */
export async function chooseDomains(call: AgencyCall, input: ChooseDomainsInput): Promise<PreviewAnswer<ChooseDomainsPreview> | { plan: PlanView; steps: StepView[] }> {
  const out = await runTwoStep(call, chooseDomainsDef, input);
  return out.confirmed ? out.result : out.answer;
}
