// attach_mailboxes: mailboxes of a client join campaigns of the same client. A reserve starts ramping that day
// (week 1 at its ramp start cap: 10, or 5 after an unpark); a warming mailbox stays warming and ramps once warm; an
// attached ramping or active mailbox just gains campaigns. Parked and retired mailboxes are refused: a parked one is
// unparked first (unpark_mailbox), a retired one sends nothing again.
import { and, eq, inArray } from 'drizzle-orm';
import { campaigns, mailboxCampaigns, mailboxes } from '../../schema';
import { findClient } from '../agency/clients/view';
import { writeAudit } from '../agency/audit';
import type { AgencyCall } from '../agency/operation';
import { ApiError } from '../errors';
import { mailboxViews, orgToday, type MailboxLifecycle } from './lifecycle_view';
import { capFor } from './ramp';
import { readDomainRule } from './rule';

export type AttachInput = { client_id: string; mailbox_ids: string[]; campaign_ids: string[] };

export async function attachMailboxes(call: AgencyCall, input: AttachInput): Promise<{ mailboxes: MailboxLifecycle[]; attached: number }> {
  const orgId = call.auth.orgId;
  const mailboxIds = [...new Set(input.mailbox_ids)];
  const campaignIds = [...new Set(input.campaign_ids)];
  return call.services.db.transaction(async (tx) => {
    const client = await findClient(tx, orgId, input.client_id);
    const found = await tx
      .select()
      .from(mailboxes)
      .where(and(eq(mailboxes.orgId, orgId), eq(mailboxes.clientId, client.id), inArray(mailboxes.id, mailboxIds)))
      .for('update');
    const missing = mailboxIds.filter((id) => !found.some((m) => m.id === id));
    if (missing.length) throw new ApiError('not_found', `mailbox ${missing.join(', ')} not found for this client`);
    const refused = found.filter((m) => m.status === 'parked' || m.status === 'retired');
    if (refused.length) {
      throw new ApiError(
        'conflict',
        `cannot attach ${refused.map((m) => `${m.address} (${m.status})`).join(', ')}: a parked mailbox is unparked first (unpark_mailbox), a retired one sends no more`,
      );
    }
    const owned = await tx
      .select({ id: campaigns.id })
      .from(campaigns)
      .where(and(eq(campaigns.orgId, orgId), eq(campaigns.clientId, client.id), inArray(campaigns.id, campaignIds)));
    const unknown = campaignIds.filter((id) => !owned.some((c) => c.id === id));
    if (unknown.length) throw new ApiError('not_found', `campaign ${unknown.join(', ')} not found for this client`);

    const pairs = found.flatMap((m) => campaignIds.map((campaignId) => ({ mailboxId: m.id, campaignId, orgId, attachedAt: call.now })));
    const added = await tx.insert(mailboxCampaigns).values(pairs).onConflictDoNothing().returning({ mailboxId: mailboxCampaigns.mailboxId });
    const today = await orgToday(tx, orgId, call.now);
    const reserves = found.filter((m) => m.status === 'reserve');
    if (reserves.length) {
      const rule = await readDomainRule(tx, orgId, client.id);
      for (const m of reserves) {
        const dailyCap = capFor('ramping', 1, m.rampStartCap, rule.daily_cap);
        await tx.update(mailboxes).set({ status: 'ramping', statusSince: today, dailyCap, updatedAt: call.now }).where(eq(mailboxes.id, m.id));
        await writeAudit(tx, { orgId, actor: call.actor, action: 'mailbox.ramping', target: `mailbox:${m.id}`, detail: { client_id: client.id, address: m.address, from: 'reserve', day: today, daily_cap: dailyCap }, at: call.now });
      }
    }
    if (added.length) {
      await writeAudit(tx, {
        orgId,
        actor: call.actor,
        action: 'mailboxes.attached',
        target: `client:${client.id}`,
        detail: { mailbox_ids: found.map((m) => m.id), campaign_ids: campaignIds, attached: added.length, started_ramping: reserves.map((m) => m.id) },
        at: call.now,
      });
    }
    const views = await mailboxViews(tx, orgId, client.id, today, { where: inArray(mailboxes.id, mailboxIds) });
    return { mailboxes: views, attached: added.length };
  });
}
