// run_signals (two steps, paid): the preview shows the run's leads and the ceiling of its charge; the confirm
// creates the run (enrich_runs, kind `signals`, one enrich_run_items row per lead) and queues its first round.
// Nothing is charged at the confirm: each round charges 1 credit per lead with a signal found, in the round's own
// transaction (round.ts). The preview's `credits` is that ceiling, so the caller sees what the run can cost.
import { enrichRunItems, enrichRuns } from '../../schema';
import { findClient } from '../agency/clients/view';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import { balanceOf } from '../credits/ledger';
import type { ErrorCode } from '../errors';
import type { SignalKind } from '../ports/enrichment/port';
import { SIGNALS_ROUND_JOB } from './job_kind';
import { allKinds, signalDomain } from './kinds';
import type { SignalsRunPreview, SignalsRunView } from './schema';
import { MAX_RUN_LEADS, ROUND_SIZE, selectSignalLeads } from './selection';
import { signalsRunView } from './view';

export type RunSignalsInput = { client_id: string; lead_ids?: string[]; kinds?: SignalKind[]; confirm_token?: string };
type State = { lead_ids: string[]; kinds: SignalKind[]; paid_today: string[] };

const PREVIEW_LEADS = 50;

const runSignalsDef: TwoStepDef<RunSignalsInput, SignalsRunPreview, { run: SignalsRunView }> = {
  tool: 'run_signals',
  async preview(call, input, db) {
    const orgId = call.auth.orgId;
    await findClient(db, orgId, input.client_id);
    const kinds = input.kinds ?? allKinds();
    const s = await selectSignalLeads(db, { orgId, clientId: input.client_id, leadIds: input.lead_ids, kinds, now: call.now });
    const balance = await balanceOf(db, orgId);
    const total = s.eligible.length;
    const max = total - s.paidToday.size;
    const { enrichment } = call.services.studio;
    const blockedBy: ErrorCode | undefined = total === 0 ? 'conflict' : balance < Math.min(max, ROUND_SIZE) ? 'insufficient_credits' : undefined;
    const blockedMessage =
      blockedBy === 'conflict'
        ? 'no lead to look up: every lead considered has no company domain or is in another open signals run'
        : blockedBy
          ? `the first round can charge up to ${Math.min(max, ROUND_SIZE)} credits and the organization has ${balance}`
          : undefined;
    const state: State = { lead_ids: s.eligible.map((l) => l.id), kinds, paid_today: [...s.paidToday].sort() };
    return {
      preview: {
        leads: s.eligible.slice(0, PREVIEW_LEADS).map((l) => ({ lead_id: l.id, company: l.company, domain: signalDomain(l)! })),
        more_leads: Math.max(0, total - PREVIEW_LEADS),
        skipped: { no_domain: s.counts.no_domain, in_other_run: s.counts.in_other_run },
        skipped_leads: input.lead_ids ? s.skipped : [],
        beyond_run: s.beyondRun,
        kinds,
        already_paid_today: s.paidToday.size,
        max_credits: max,
        round_size: ROUND_SIZE,
        rounds: Math.ceil(total / ROUND_SIZE),
        balance,
        provider: enrichment.kind,
        simulated: enrichment.kind === 'sim',
      },
      state,
      // Charged per round as signals are found, never at the confirm (runTwoStep would charge a non-zero figure).
      credits: 0,
      blockedBy,
      blockedMessage,
    };
  },
  async apply(call, input, tx, p) {
    const state = p.state as State;
    const [run] = await tx
      .insert(enrichRuns)
      .values({
        orgId: call.auth.orgId,
        clientId: input.client_id,
        kind: 'signals',
        signalKinds: state.kinds,
        onlyEmpty: false,
        status: 'running',
        total: state.lead_ids.length,
        creditCap: p.preview.max_credits,
        keyId: call.auth.keyId,
        actor: call.actor,
        createdAt: call.now,
        updatedAt: call.now,
      })
      .returning();
    for (let i = 0; i < state.lead_ids.length; i += 500) {
      await tx.insert(enrichRunItems).values(state.lead_ids.slice(i, i + 500).map((leadId, j) => ({ runId: run.id, leadId, position: i + j })));
    }
    const { queue } = call.services;
    // The embedded queue stores the job in this transaction: the run and its first round commit together.
    if (queue.transactional) await queue.enqueue(roundJob(run.id, call.auth.orgId), { tx });
    return {
      result: { run: signalsRunView(run) },
      audit: { action: 'run_signals', target: `client:${input.client_id}`, detail: { run_id: run.id, leads: run.total, kinds: state.kinds, max_credits: run.creditCap } },
    };
  },
};

export const roundJob = (runId: string, orgId: string, runAt?: Date) => ({
  kind: SIGNALS_ROUND_JOB,
  payload: { run_id: runId, org_id: orgId },
  ...(runAt && { runAt }),
});

/** Both calls of run_signals: the preview (its `credits` = the charge's ceiling) or the created run. */
export async function runSignals(call: AgencyCall, input: RunSignalsInput): Promise<PreviewAnswer<SignalsRunPreview> | { run: SignalsRunView }> {
  const out = await runTwoStep(call, runSignalsDef, input);
  if (!out.confirmed) return { ...out.answer, credits: out.answer.preview.max_credits };
  const { queue } = call.services;
  // QStash cannot publish inside our transaction: published after commit (a lost publish leaves the run waiting
  // for get_run's continue, never charged twice).
  if (!queue.transactional) await queue.enqueue(roundJob(out.result.run.id, call.auth.orgId));
  return out.result;
}

export { MAX_RUN_LEADS };
