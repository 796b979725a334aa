// client_today: what a person asks each morning about one client, in one read. Three lists of short items, each
// naming who acts (`person`: someone in the app or a key with the right scope; `assistant`: the AI assistant) and the
// tool that acts: what waits for whom, what runs today (the organization's day), and what is off track.
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { batches, mailboxes, organizations, plans, planSteps, studioCampaigns } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { activeAgreements } from '../agreements/list';
import { courseOf } from '../course/compute';
import { addDays, dayIn, startOfDay } from '../course/days';
import { rows, type Db } from '../db/types';
import { stepSummary } from '../plans/view';
import { campaignHealth } from './analytics';

const Item = z.object({
  who: z.enum(['person', 'assistant', 'system']),
  what: z.string(),
  tool: z.string().nullable(),
  id: z.string().nullable(),
});
export const TodaySchema = z.object({
  client_id: z.string(),
  day: z.string(),
  timezone: z.string(),
  push_gate_open: z.boolean(),
  waiting: z.array(Item),
  runs_today: z.array(Item),
  sends_today: z.object({ sent: z.number().int(), bounced: z.number().int(), replied: z.number().int() }).nullable().describe('simulated sequencer only'),
  off_track: z.array(Item),
});
type Item = z.infer<typeof Item>;

const item = (who: Item['who'], what: string, tool: string | null, id: string | null = null): Item => ({ who, what, tool, id });

async function batchItem(db: Db, orgId: string, clientId: string): Promise<Item | null> {
  const [b] = await db
    .select()
    .from(batches)
    .where(and(eq(batches.orgId, orgId), eq(batches.clientId, clientId), inArray(batches.status, ['allocated', 'writing', 'written', 'approved'])))
    .orderBy(desc(batches.createdAt))
    .limit(1);
  if (!b) return null;
  if (b.status === 'allocated') return item('assistant', `Batch of ${b.size} leads is allocated: write it.`, 'start_writing', b.id);
  if (b.status === 'writing') return item('system', 'Batch is being written.', 'batch_status', b.id);
  if (b.status === 'approved') {
    const [c] = await db.select({ id: studioCampaigns.id }).from(studioCampaigns).where(eq(studioCampaigns.batchId, b.id));
    return c ? null : item('assistant', 'Batch is approved: start its campaign.', 'start_campaign', b.id);
  }
  const [r] = await rows<{ pending: number; unwritten: number }>(
    db,
    sql`select count(*) filter (where review = 'pending')::int as pending, count(*) filter (where mails is null and review <> 'rejected')::int as unwritten
        from batch_leads where batch_id = ${b.id}::uuid`,
  );
  if (Number(r.unwritten) > 0) return item('assistant', `${r.unwritten} leads of the batch are not written yet.`, 'start_writing', b.id);
  if (Number(r.pending) > 0) return item('person', `Review ${r.pending} written leads.`, 'review_batch', b.id);
  return item('person', 'Every lead is reviewed: approve the batch.', 'approve_batch', b.id);
}

export async function clientToday(call: AgencyCall, input: { client_id: string }) {
  const { db } = call.services;
  const orgId = call.auth.orgId;
  const client = await findClient(db, orgId, input.client_id);
  const [org] = await db.select({ timezone: organizations.timezone, gate: organizations.pushGateOpen }).from(organizations).where(eq(organizations.id, orgId));
  const tz = org?.timezone ?? 'UTC';
  const day = dayIn(tz, call.now);
  const from = startOfDay(tz, day);
  const until = startOfDay(tz, addDays(day, 1));

  const waiting: Item[] = [];
  const waitingPlans = await db.select({ id: plans.id, title: plans.title }).from(plans).where(and(eq(plans.orgId, orgId), eq(plans.clientId, client.id), eq(plans.status, 'waiting_approval')));
  for (const p of waitingPlans) waiting.push(item('person', `Plan "${p.title}" waits for approval.`, 'approve_plan', p.id));
  const batch = await batchItem(db, orgId, client.id);
  if (batch) waiting.push(batch);
  const [rq] = await rows<{ queued: number; unanswered: number }>(
    db,
    sql`select count(*) filter (where r.status = 'queued')::int as queued, count(*) filter (where r.status = 'unanswered')::int as unanswered
        from replies r join campaigns c on c.id = r.campaign_id where r.org_id = ${orgId}::uuid and c.client_id = ${client.id}::uuid`,
  );
  if (Number(rq.queued) > 0) waiting.push(item('person', `${rq.queued} reply drafts wait in the review queue.`, 'list_pending_replies', null));
  if (Number(rq.unanswered) > 0) waiting.push(item('assistant', `${rq.unanswered} replies are unanswered.`, 'list_pending_replies', null));

  const runs_today: Item[] = [];
  const off_track: Item[] = [];
  const due = await rows<{ id: string; kind: string; params: Record<string, unknown>; status: string; error: string | null; due_at: string | Date | null }>(
    db,
    sql`select s.id, s.kind, s.params, s.status, s.error, s.due_at from plan_steps s join plans p on p.id = s.plan_id
        where p.org_id = ${orgId}::uuid and p.client_id = ${client.id}::uuid and p.status = 'approved'
          and (s.status = 'running' or (s.status = 'scheduled' and s.due_at < ${until.toISOString()}::timestamptz))
        order by s.due_at, s.position`,
  );
  for (const s of due) {
    const at = s.due_at ? new Date(s.due_at) : null;
    const when = at && at >= from ? ` at ${at.toISOString()}` : at ? ' (overdue)' : '';
    runs_today.push(item('system', `${stepSummary({ kind: s.kind, params: s.params })}${when}.`, 'get_plan', s.id));
    if (s.kind === 'push_batch' && !org?.gate) off_track.push(item('person', 'A push waits for the organization\'s push gate to open.', null, s.id));
  }
  const [sends] = await rows<{ sent: number; bounced: number; replied: number; n: number }>(
    db,
    sql`select count(*)::int as n, count(*)::int as sent, count(*) filter (where x.outcome = 'bounced')::int as bounced, count(*) filter (where x.outcome = 'replied')::int as replied
        from sim_sequencer_sends x join sim_sequencer_campaigns q on q.id = x.campaign_id
        join studio_campaigns s on s.org_id = q.org_id and s.id::text = q.reference
        where s.org_id = ${orgId}::uuid and s.client_id = ${client.id}::uuid and x.day = ${day}`,
  );
  const simulated = call.services.studio.sequencer.kind === 'sim';

  const course = await courseOf(db, tz, await activeAgreements(db, orgId, client.id), call.now);
  for (const c of course) {
    if (c.figures.status === 'off track' || c.figures.status === 'at risk') {
      off_track.push(item('assistant', `Agreement ${c.agreement.kind} is ${c.figures.status} (${c.figures.actual ?? '?'} of ${c.figures.expected_to_date ?? '?'} expected so far).`, 'get_course', c.agreement.id));
    }
  }
  const parked = await db.select({ id: mailboxes.id, address: mailboxes.address }).from(mailboxes).where(and(eq(mailboxes.orgId, orgId), eq(mailboxes.clientId, client.id), eq(mailboxes.status, 'parked')));
  for (const m of parked) off_track.push(item('person', `Mailbox ${m.address} is parked.`, 'get_mailbox_lifecycle', m.id));
  const health = await campaignHealth(db, orgId, client.id);
  const stop = health.checkpoints.filter((c) => c.verdict === 'stop').pop();
  if (stop) off_track.push(item('person', `Campaign health says stop at ${stop.prospects} prospects: ${stop.reasons.join('; ')}.`, 'campaign_analytics', null));
  const failed = await db
    .select({ id: studioCampaigns.id, name: studioCampaigns.name, error: planSteps.error })
    .from(studioCampaigns)
    .innerJoin(planSteps, eq(planSteps.id, studioCampaigns.planStepId))
    .where(and(eq(studioCampaigns.orgId, orgId), eq(studioCampaigns.clientId, client.id), eq(planSteps.status, 'failed')));
  for (const f of failed) off_track.push(item('assistant', `Campaign "${f.name}" failed: ${f.error ?? 'unknown error'}.`, 'campaign_results', f.id));

  return {
    today: {
      client_id: client.id,
      day,
      timezone: tz,
      push_gate_open: org?.gate ?? false,
      waiting,
      runs_today,
      sends_today: simulated ? { sent: Number(sends.sent), bounced: Number(sends.bounced), replied: Number(sends.replied) } : null,
      off_track,
    },
  };
}
