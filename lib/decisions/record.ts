import { decisions } from '../../schema';
import type { Db } from '../db/types';

export type DecisionInput = {
  orgId: string;
  actor: string;
  action: string;
  replyId?: string | null;
  leadId?: string | null;
  detail?: Record<string, unknown>;
  at: Date;
};

/** A Decision Trail row; written with the transaction of the state change it explains. */
export async function recordDecision(tx: Db, d: DecisionInput) {
  await tx.insert(decisions).values({
    orgId: d.orgId,
    actor: d.actor,
    action: d.action,
    replyId: d.replyId ?? null,
    leadId: d.leadId ?? null,
    detail: d.detail ?? {},
    at: d.at,
  });
}
