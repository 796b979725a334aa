// A client's table destination: where its leads are posted (agency spec §4 rule 4). Owners and admins set it through
// the admin API; the URL passes the webhooks' SSRF rules and the token is stored AES-GCM encrypted (secrets:rotate).
import { eq } from 'drizzle-orm';
import { tableDestinations } from '../../schema';
import { writeAudit } from '../agency/audit';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import type { Services } from '../services';
import { checkWebhookUrl } from '../webhooks/manage';
import { requireClient } from './clients';

export type DestinationView = { url: string; has_token: boolean };

/** PUT: replaces the destination whole (a PUT without `token` leaves none). */
export async function putTableDestination(
  services: Pick<Services, 'db' | 'config' | 'secrets' | 'resolveHost'>,
  a: { clientId: string; url: string; token?: string; now: Date },
): Promise<DestinationView> {
  const client = await requireClient(services.db, a.clientId);
  const checked = await checkWebhookUrl(services, a.url);
  if (!checked.ok) throw new ApiError('validation_error', `url: ${checked.reason}`);
  const tokenEnc = a.token ? await services.secrets.encrypt(a.token) : null;
  return services.db.transaction(async (tx) => {
    const values = { clientId: client.id, orgId: client.orgId, url: a.url, tokenEnc, updatedAt: a.now };
    await tx.insert(tableDestinations).values(values).onConflictDoUpdate({ target: tableDestinations.clientId, set: { url: values.url, tokenEnc, updatedAt: a.now } });
    const view = { url: a.url, has_token: tokenEnc !== null };
    await writeAudit(tx, { orgId: client.orgId, actor: 'admin', action: 'table_destination.set', target: client.id, detail: { client_id: client.id, ...view }, at: a.now });
    return view;
  });
}

/** The destination with its token decrypted, for the push job; null when the client has none. */
export async function loadTableDestination(services: Pick<Services, 'secrets'>, db: Db, clientId: string) {
  const [row] = await db.select().from(tableDestinations).where(eq(tableDestinations.clientId, clientId));
  if (!row) return null;
  return { url: row.url, token: row.tokenEnc ? await services.secrets.decrypt(row.tokenEnc) : null };
}
