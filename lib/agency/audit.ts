import { auditLog } from '../../schema';
import type { Db } from '../db/types';

export type AuditEntry = {
  orgId: string;
  actor: string;
  action: string;
  target?: string | null;
  detail?: Record<string, unknown>;
  credits?: number;
  at: Date;
};

/** The agency audit row of one write: call it inside the write's transaction, never after it. */
export async function writeAudit(tx: Db, e: AuditEntry) {
  await tx.insert(auditLog).values({
    orgId: e.orgId,
    actor: e.actor,
    action: e.action,
    target: e.target ?? null,
    detail: e.detail ?? {},
    credits: e.credits ?? 0,
    at: e.at,
  });
}
