// Moves every secret stored at rest to the current ENCRYPTION_KEY (`npm run secrets:rotate`, run after deploying
// ENCRYPTION_KEY = new key and ENCRYPTION_KEY_PREVIOUS = old key). Each row is rewritten only if it still holds the
// blob that was read (compare-and-set), so a secret rotated by its owner meanwhile is left as the owner set it.
// Running it again finds nothing to do; once it reports 0 left on the old key, ENCRYPTION_KEY_PREVIOUS can go.
import { and, eq, isNotNull } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import { mailboxes, sendingProviders, tableDestinations, webhooks } from '../../schema';
import type { Db } from '../db/types';
import type { SecretBox } from './secret_box';

type Store = { name: string; table: PgTable; id: PgColumn; blob: PgColumn; field: string };
const STORES: Store[] = [
  { name: 'webhook secrets', table: webhooks, id: webhooks.id, blob: webhooks.secretEnc, field: 'secretEnc' },
  { name: 'rolled-over webhook secrets', table: webhooks, id: webhooks.id, blob: webhooks.previousSecretEnc, field: 'previousSecretEnc' },
  { name: 'sending provider secrets', table: sendingProviders, id: sendingProviders.orgId, blob: sendingProviders.secretEnc, field: 'secretEnc' },
  { name: 'table destination tokens', table: tableDestinations, id: tableDestinations.clientId, blob: tableDestinations.tokenEnc, field: 'tokenEnc' },
  { name: 'mailbox credentials', table: mailboxes, id: mailboxes.id, blob: mailboxes.credentialEnc, field: 'credentialEnc' },
];

export type RotationReport = { store: string; rows: number; reencrypted: number; alreadyCurrent: number; changedMeanwhile: number }[];

export async function reencryptStoredSecrets(db: Db, secrets: SecretBox): Promise<RotationReport> {
  const report: RotationReport = [];
  for (const s of STORES) {
    const found = (await db.select({ id: s.id, blob: s.blob }).from(s.table).where(isNotNull(s.blob))) as { id: string; blob: string }[];
    const line = { store: s.name, rows: found.length, reencrypted: 0, alreadyCurrent: 0, changedMeanwhile: 0 };
    for (const row of found) {
      const next = await secrets.reencrypt(row.blob);
      if (next === null) {
        line.alreadyCurrent++;
        continue;
      }
      const updated = await db
        .update(s.table)
        .set({ [s.field]: next } as never)
        .where(and(eq(s.id, row.id), eq(s.blob, row.blob)))
        .returning({ id: s.id });
      if (updated.length === 1) line.reencrypted++;
      else line.changedMeanwhile++;
    }
    report.push(line);
  }
  return report;
}
