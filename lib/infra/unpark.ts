// unpark_mailbox (agency-tools-and-bridge.md §3, two steps): a parked mailbox sends again only when its 7-day bounce
// rate is under 2 % and its domain is not listed; it restarts at week 1 with 5 sends a day — ramping when it still
// has campaigns, a reserve when auto-protect moved them to the reserve that replaced it.
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { mailboxCampaigns, mailboxes } from '../../schema';
import { findClient } from '../agency/clients/view';
import { runTwoStep, type PreviewAnswer, type TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { UNPARK_MAX_BOUNCE_RATE } from './mailbox_health';
import { mailboxViews, MailboxLifecycleSchema, orgToday, type MailboxLifecycle } from './lifecycle_view';
import { capFor, UNPARK_START_CAP } from './ramp';

export type UnparkInput = { client_id: string; mailbox_id: string; confirm_token?: string };

export const UnparkPreviewSchema = z.object({
  mailbox: MailboxLifecycleSchema,
  bounce_rate_7d: z.number(),
  domain_listed: z.boolean(),
  allowed: z.boolean(),
  refused_because: z.string().nullable(),
  next_status: z.enum(['ramping', 'reserve']),
  restarts_at: z.number().int().describe('sends a day in its first ramp week'),
});
type UnparkPreview = z.infer<typeof UnparkPreviewSchema>;

async function parkedMailbox(db: Db, call: AgencyCall, input: UnparkInput, lock: boolean) {
  const orgId = call.auth.orgId;
  const client = await findClient(db, orgId, input.client_id);
  const q = db.select().from(mailboxes).where(and(eq(mailboxes.id, input.mailbox_id), eq(mailboxes.orgId, orgId), eq(mailboxes.clientId, client.id)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) throw notFound('mailbox');
  const today = await orgToday(db, orgId, call.now);
  const [view] = await mailboxViews(db, orgId, client.id, today, { where: eq(mailboxes.id, row.id) });
  if (row.status !== 'parked') throw new ApiError('conflict', `the mailbox is ${row.status}; only a parked mailbox can be unparked`, { body: { mailbox: view } });
  const [link] = await db.select({ id: mailboxCampaigns.campaignId }).from(mailboxCampaigns).where(eq(mailboxCampaigns.mailboxId, row.id)).limit(1);
  return { row, view, today, attached: Boolean(link) };
}

function refusal(view: MailboxLifecycle): string | null {
  const h = view.health;
  if (h.domain_listed) return `its domain ${view.domain} is listed; move its campaigns to another mailbox`;
  if (h.bounce_rate_7d >= UNPARK_MAX_BOUNCE_RATE) {
    return `its 7-day bounce rate is ${(h.bounce_rate_7d * 100).toFixed(2)} % (${h.bounced_7d} of ${h.sent_7d}); it must be under ${UNPARK_MAX_BOUNCE_RATE * 100} % (a parked mailbox sends nothing, so the rate falls within a week)`;
  }
  if (!h.connected) return 'it is disconnected at the mailbox provider; reconnect it first (the next daily tick would park it again)';
  return null;
}

const unparkDef: TwoStepDef<UnparkInput, UnparkPreview, { mailbox: MailboxLifecycle }> = {
  tool: 'unpark_mailbox',
  async preview(call, input, db) {
    const { row, view, attached } = await parkedMailbox(db, call, input, db !== call.services.db);
    const why = refusal(view);
    return {
      preview: {
        mailbox: view,
        bounce_rate_7d: view.health.bounce_rate_7d,
        domain_listed: view.health.domain_listed,
        allowed: why === null,
        refused_because: why,
        next_status: attached ? 'ramping' : 'reserve',
        restarts_at: UNPARK_START_CAP,
      },
      state: { status: row.status, parked_at: row.parkedAt?.toISOString() ?? null, last_tick_day: row.lastTickDay, attached, health: view.health },
      credits: 0,
      ...(why && { blockedBy: 'unpark_refused' as const, blockedMessage: `the mailbox cannot be unparked: ${why}` }),
    };
  },
  async apply(call, input, tx) {
    const { row, today, attached } = await parkedMailbox(tx, call, input, true);
    const status = attached ? 'ramping' : 'reserve';
    const dailyCap = capFor(status, 1, UNPARK_START_CAP, Number.MAX_SAFE_INTEGER);
    await tx
      .update(mailboxes)
      .set({ status, statusSince: today, rampStartCap: UNPARK_START_CAP, dailyCap, parkReason: null, parkedAt: null, updatedAt: call.now })
      .where(eq(mailboxes.id, row.id));
    const [view] = await mailboxViews(tx, call.auth.orgId, input.client_id, today, { where: eq(mailboxes.id, row.id) });
    return {
      result: { mailbox: view },
      audit: {
        action: 'mailbox.unparked',
        target: `mailbox:${row.id}`,
        detail: { client_id: input.client_id, address: row.address, status, ramp_start_cap: UNPARK_START_CAP, park_reason: row.parkReason, parked_at: row.parkedAt?.toISOString() ?? null },
      },
    };
  },
};

/** Both calls of unpark_mailbox: the preview (blocked_by unpark_refused when refused), or the mailbox sending again. */
export async function unparkMailbox(call: AgencyCall, input: UnparkInput): Promise<PreviewAnswer<UnparkPreview> | { mailbox: MailboxLifecycle }> {
  const out = await runTwoStep(call, unparkDef, input);
  return out.confirmed ? out.result : out.answer;
}
