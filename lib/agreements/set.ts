import { and, eq, sql } from 'drizzle-orm';
import { agreements, organizations } from '../../schema';
import { writeAudit } from '../agency/audit';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { addDays, dayIn } from '../course/days';
import { ApiError } from '../errors';
import { TARGET_MAX } from './input';
import { agreementView, type AgreementRow, type AgreementView } from './view';

export type SetAgreementInput = {
  client_id: string;
  kind: AgreementRow['kind'];
  label?: string;
  target: number;
  start: string;
  catch_up?: 'spread' | 'drop';
};

const invalid = (message: string) => new ApiError('validation_error', message);

/** The rules one field's schema cannot state: they read another field, or today's date. */
function checkFields(input: SetAgreementInput, today: string) {
  if (input.kind === 'custom' && !input.label) throw invalid('label: required for a custom agreement');
  if (input.kind !== 'custom' && input.label !== undefined) throw invalid(`label: only a custom agreement has a label (kind is ${input.kind})`);
  const max = TARGET_MAX[input.kind];
  if (input.target > max) throw invalid(`target: at most ${max} for ${input.kind}`);
  if (input.start < addDays(today, -3653)) throw invalid('start: at most ten years back');
  if (input.start > addDays(today, 366)) throw invalid('start: at most one year ahead');
}

/**
 * set_agreement: the client's agreement of this kind (custom: this label, any case) becomes the given one. The
 * one it replaces is marked inactive in the same transaction, so there is never a moment with none or two. A
 * repeat of the active agreement changes nothing and answers it with replaced: null.
 */
export async function setAgreement(call: AgencyCall, input: SetAgreementInput): Promise<{ agreement: AgreementView; replaced: AgreementView | null; created: boolean }> {
  const { db } = call.services;
  const { orgId } = call.auth;
  const [org] = await db.select({ timezone: organizations.timezone }).from(organizations).where(eq(organizations.id, orgId));
  checkFields(input, dayIn(org?.timezone ?? 'UTC', call.now));
  const label = input.kind === 'custom' ? input.label!.replace(/\s+/g, ' ') : null;
  const catchUp = input.catch_up ?? 'spread';
  return db.transaction(async (tx) => {
    // The client row lock serialises two concurrent replacements of one client's agreements.
    await findClient(tx, orgId, input.client_id, true);
    const sameKind = and(
      eq(agreements.clientId, input.client_id),
      eq(agreements.orgId, orgId),
      eq(agreements.kind, input.kind),
      eq(agreements.active, true),
      label === null ? sql`${agreements.label} is null` : sql`lower(${agreements.label}) = lower(${label})`,
    );
    const [current] = await tx.select().from(agreements).where(sameKind);
    if (current && current.label === label && Number(current.target) === input.target && current.start === input.start && current.catchUp === catchUp) {
      return { agreement: agreementView(current), replaced: null, created: false };
    }
    const replaced = current
      ? (await tx.update(agreements).set({ active: false, replacedAt: call.now }).where(eq(agreements.id, current.id)).returning())[0]
      : undefined;
    const [row] = await tx
      .insert(agreements)
      .values({ orgId, clientId: input.client_id, kind: input.kind, label, target: input.target, start: input.start, catchUp, createdBy: call.actor, createdAt: call.now })
      .returning();
    await writeAudit(tx, {
      orgId,
      actor: call.actor,
      action: 'agreement.set',
      target: `agreement:${row.id}`,
      detail: { client_id: input.client_id, kind: input.kind, label, target: input.target, start: input.start, catch_up: catchUp, replaced_id: replaced?.id ?? null },
      at: call.now,
    });
    return { agreement: agreementView(row), replaced: replaced ? agreementView(replaced) : null, created: true };
  });
}
