// Which mailboxes send for a Studio campaign: those attached to its core campaign (attach_mailboxes; auto-protect's
// swaps move the attachment), while they are ramping or active, each at the cap the daily mailbox tick set today.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { mailboxCampaigns, mailboxes } from '../../schema';
import type { Db } from '../db/types';

export type SendingMailbox = { address: string; daily_cap: number };

export async function sendingMailboxes(db: Db, orgId: string, campaignId: string): Promise<SendingMailbox[]> {
  const found = await db
    .select({ address: mailboxes.address, cap: mailboxes.dailyCap })
    .from(mailboxCampaigns)
    .innerJoin(mailboxes, eq(mailboxes.id, mailboxCampaigns.mailboxId))
    .where(and(eq(mailboxCampaigns.campaignId, campaignId), eq(mailboxCampaigns.orgId, orgId), inArray(mailboxes.status, ['ramping', 'active'])))
    .orderBy(mailboxes.address);
  return found.map((m) => ({ address: m.address, daily_cap: m.cap }));
}

/** How many of the client's mailboxes could ever send (warming, ready, ramping or active): none → nothing to start. */
export async function usableMailboxCount(db: Db, orgId: string, clientId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(mailboxes)
    .where(and(eq(mailboxes.orgId, orgId), eq(mailboxes.clientId, clientId), inArray(mailboxes.status, ['warming', 'reserve', 'ramping', 'active'])));
  return Number(row?.n ?? 0);
}
