import { and, eq } from 'drizzle-orm';
import { campaigns, leads, replies } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import type { Tenant } from '../tenancy';

/**
 * Loads a reply with its lead inside a write, locking both rows (FOR UPDATE) so concurrent writers on the
 * same lead serialise. Another tenant's reply is simply not found.
 */
export async function findReplyForUpdate(tx: Db, tenant: Tenant, replyId: string) {
  const conditions = [eq(replies.id, replyId), eq(replies.orgId, tenant.orgId)];
  if (tenant.clientId) conditions.push(eq(campaigns.clientId, tenant.clientId));
  const [row] = await tx
    .select({ reply: replies, lead: leads, campaign: { id: campaigns.id, name: campaigns.name, clientId: campaigns.clientId, provider: campaigns.provider, providerCampaignId: campaigns.providerCampaignId } })
    .from(replies)
    .innerJoin(leads, eq(leads.id, replies.leadId))
    .innerJoin(campaigns, eq(campaigns.id, replies.campaignId))
    .where(and(...conditions))
    .for('update', { of: [replies, leads] })
    .limit(1);
  if (!row) throw notFound('reply');
  return row;
}
