import { writeAudit } from '../audit';
import { findClient } from '../clients/view';
import type { AgencyCall } from '../operation';
import { moveCampaigns } from './move';
import { agencyCampaignView, findCampaign, type AgencyCampaign } from './view';

/**
 * link_campaign: links a campaign to one of the organization's clients, or unlinks it (client_id null). Another
 * organization's campaign or client is not_found. Linking it where it already is writes nothing (updated: false),
 * so a repeated call is harmless; a move writes its audit row and stamps the campaign's leads in one transaction.
 */
export async function linkCampaign(call: AgencyCall, input: { campaign_id: string; client_id: string | null }): Promise<{ campaign: AgencyCampaign; updated: boolean }> {
  const { orgId } = call.auth;
  return call.services.db.transaction(async (tx) => {
    // Under the row lock: a stats sync racing the move must not write the old client back (as in updateCampaign).
    const current = await findCampaign(tx, orgId, input.campaign_id, true);
    const client = input.client_id ? await findClient(tx, orgId, input.client_id) : null;
    const ref = client ? { id: client.id, name: client.name } : null;
    if (current.clientId === (client?.id ?? null)) return { campaign: agencyCampaignView(current, ref), updated: false };
    await writeAudit(tx, {
      orgId,
      actor: call.actor,
      action: client ? 'campaign.linked' : 'campaign.unlinked',
      target: `campaign:${current.id}`,
      detail: { from_client_id: current.clientId, to_client_id: client?.id ?? null },
      at: call.now,
    });
    const [row] = await moveCampaigns(tx, orgId, [{ current, clientId: client?.id ?? null }]);
    return { campaign: agencyCampaignView(row, ref), updated: true };
  });
}
