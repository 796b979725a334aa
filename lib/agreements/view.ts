import { z } from 'zod';
import type { agreements } from '../../schema';

export const AGREEMENT_KINDS = ['new_prospects_per_workday', 'meetings_per_month', 'replies_per_month', 'custom'] as const;
export const CATCH_UP = ['spread', 'drop'] as const;

/** An agreement as the agency API shows it (agency-operator.md §4); `label` only on custom ones. */
export const AgreementSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  kind: z.enum(AGREEMENT_KINDS),
  label: z.string().optional(),
  target: z.number(),
  start: z.string(),
  catch_up: z.enum(CATCH_UP),
  active: z.boolean(),
});
export type AgreementView = z.infer<typeof AgreementSchema>;
export type AgreementRow = typeof agreements.$inferSelect;

export const agreementView = (a: AgreementRow): AgreementView => ({
  id: a.id,
  client_id: a.clientId,
  kind: a.kind,
  ...(a.label !== null ? { label: a.label } : {}),
  target: Number(a.target),
  start: a.start,
  catch_up: a.catchUp,
  active: a.active,
});
