import { suppressions } from '../../schema';
import type { Db } from '../db/types';
import type { Suppression } from './match';
import { entryValue, type SuppressionKind } from './values';

export type NewSuppression = {
  orgId: string;
  /** null: the organization's do-not-contact list (every client); set: that client's never-mail list. */
  clientId: string | null;
  kind: SuppressionKind;
  /** An address or a domain as given; stored normalised (entryValue refuses malformed values and public suffixes). */
  value: string;
  reason: Suppression['reason'];
  replyId?: string | null;
  leadId?: string | null;
  detail?: string | null;
  createdBy: string;
  now: Date;
};

/**
 * Adds one entry unless the same value is already listed in that scope: the inserted row, or null when it was
 * there already (ON CONFLICT DO NOTHING on suppressions_scope_value_uq, so concurrent adds of one value leave one
 * row and exactly one caller sees it as new). Runs in the caller's transaction, beside its Decision Trail row.
 */
export async function addSuppression(tx: Db, e: NewSuppression): Promise<Suppression | null> {
  const value = entryValue(e.kind, e.value);
  // No conflict target: drizzle can only name columns, and the unique index is on an expression
  // (coalesce(client_id, the zero uuid)). The only other unique key is the random primary key.
  const [row] = await tx
    .insert(suppressions)
    .values({
      orgId: e.orgId,
      clientId: e.clientId,
      kind: e.kind,
      value,
      reason: e.reason,
      replyId: e.replyId ?? null,
      leadId: e.leadId ?? null,
      detail: e.detail ?? null,
      createdBy: e.createdBy,
      createdAt: e.now,
    })
    .onConflictDoNothing()
    .returning();
  return row ?? null;
}
