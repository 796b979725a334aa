import { eq, sql } from 'drizzle-orm';
import { campaigns } from '../../../schema';
import { stampLeadChange } from '../../crm/change_clock';
import { rows, type Db } from '../../db/types';
import type { CampaignRow } from './view';

export type CampaignMove = { current: CampaignRow; clientId: string | null };

/**
 * Links campaigns to a client (or unlinks them: null) inside the caller's transaction, which holds their row
 * locks. Moving a campaign moves its leads between client portals and CRM feeds, so those leads are stamped as
 * changed, as the admin route's updateCampaign does. All leads are locked (in id order) before the one stamp: the
 * stamp takes the organization's change lock, and waiting for a lead's row lock while holding it could deadlock.
 * Call it as the transaction's last write. Returns the campaigns as they are now, in the order given.
 */
export async function moveCampaigns(tx: Db, orgId: string, moves: CampaignMove[]): Promise<CampaignRow[]> {
  const out: CampaignRow[] = [];
  const moved: string[] = [];
  for (const m of moves) {
    if (m.current.clientId === m.clientId) {
      out.push(m.current);
      continue;
    }
    const [row] = await tx.update(campaigns).set({ clientId: m.clientId }).where(eq(campaigns.id, m.current.id)).returning();
    out.push(row);
    moved.push(row.id);
  }
  if (moved.length === 0) return out;
  const ids = sql.join(moved.map((id) => sql`${id}::uuid`), sql`, `);
  const locked = await rows<{ id: string }>(tx, sql`select id from leads where org_id = ${orgId}::uuid and campaign_id in (${ids}) order by id for update`);
  if (locked.length) await stampLeadChange(tx, orgId, locked.map((l) => l.id));
  return out;
}

