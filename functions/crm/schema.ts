import { z } from '@hono/zod-openapi';
import { CLASSIFICATIONS } from '../../lib/classify/types';
import { CRM_PAGE_DEFAULT, CRM_PAGE_MAX } from '../../lib/crm/list_leads';
import { NOTE_MAX_CHARS } from '../../lib/crm/add_note';
import { PHASES } from '../../lib/crm/update_lead';

export const Phase = z.enum(PHASES);

// ISO 4217 codes as the runtime's Intl knows them (the maintained list shipped with V8/ICU, on Node and Workers).
const CURRENCIES = new Set(Intl.supportedValuesOf('currency'));

export const Deal = z
  .strictObject({
    value: z.number().finite().min(0).max(1e15),
    currency: z
      .string()
      .transform((c) => c.trim().toUpperCase())
      .refine((c) => CURRENCIES.has(c), { message: 'not an ISO 4217 currency code' })
      .openapi({ type: 'string', example: 'EUR', description: 'ISO 4217 code' }),
  })
  .openapi('CrmDeal');

export const NextAction = z
  .strictObject({
    date: z.iso.date().openapi({ example: '2026-03-02', description: 'YYYY-MM-DD' }),
    note: z.string().max(2_000).default(''),
  })
  .openapi('CrmNextAction');

const CrmNote = z.object({ at: z.string(), by: z.string(), text: z.string() }).openapi('CrmNote');

export const CrmLead = z
  .object({
    id: z.uuid().openapi({ description: 'stable: unchanged when new replies arrive' }),
    email: z.string(),
    name: z.string().nullable().openapi({ description: 'null when unknown (never the email address)' }),
    company: z.object({ name: z.null(), domain: z.string().nullable().openapi({ description: 'null for freemail providers' }) }),
    campaign: z.object({ id: z.uuid(), name: z.string() }),
    classification: z.string().openapi({ description: 'read only through this API' }),
    phase: Phase,
    deal: z.object({ value: z.number(), currency: z.string() }).nullable(),
    next_action: z.object({ date: z.string(), note: z.string() }).nullable(),
    notes: z.array(CrmNote).openapi({ description: 'notes written before the CRM API existed come first, author `legacy`' }),
    last_activity_at: z.string().nullable(),
    reply_count: z.number().int(),
    thread_url: z.string(),
    updated_at: z.string().openapi({ description: 'changes on any change of the lead; use for updated_since' }),
    crm_updated_at: z.string().nullable().openapi({ description: 'changes only when a CRM field or note changes; use for if_updated_at' }),
  })
  .openapi('CrmLead');

/** `a,b,c` of known values → the array; an unknown value is a validation error naming it. */
function commaList<T extends string>(values: readonly T[]) {
  return z
    .string()
    .max(500)
    .transform((s, ctx) => {
      const parts = s.split(',').map((p) => p.trim()).filter(Boolean);
      const unknown = parts.find((p) => !(values as readonly string[]).includes(p));
      if (unknown !== undefined || parts.length === 0) {
        ctx.addIssue({ code: 'custom', message: `expected a comma list of ${values.join(', ')}${unknown ? ` (got "${unknown}")` : ''}` });
        return z.NEVER;
      }
      return parts as T[];
    })
    .openapi({ type: 'string', description: `comma list of ${values.join(', ')}` });
}

export const ListCrmLeadsQuery = z.object({
  cursor: z.string().max(2_000).optional().openapi({ description: 'next_cursor of the previous page' }),
  limit: z.coerce.number().int().min(1).max(CRM_PAGE_MAX).default(CRM_PAGE_DEFAULT).openapi({ description: `1..${CRM_PAGE_MAX}, default ${CRM_PAGE_DEFAULT}` }),
  classification: commaList(CLASSIFICATIONS).optional(),
  phase: commaList(PHASES).optional(),
  has_next_action: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional()
    .openapi({ type: 'string', enum: ['true', 'false'] }),
  updated_since: z.iso
    .datetime({ offset: true })
    .optional()
    .openapi({ description: "only leads with updated_at at or after it: pass the server_time of your previous sync run's first page" }),
});

export const CrmLeadPage = z
  .object({
    leads: z.array(CrmLead),
    next_cursor: z.string().nullable(),
    has_more: z.boolean(),
    server_time: z.string().openapi({
      description: "the service's time when this page was read; every change the page does not show has updated_at at or after it. Store the first page's of a sync run and pass it as updated_since next run",
    }),
  })
  .openapi('CrmLeadPage');

export const UpdateCrmLeadBody = z
  .strictObject({
    phase: Phase.optional(),
    deal: Deal.nullable().optional(),
    next_action: NextAction.nullable().optional(),
    if_updated_at: z.iso.datetime({ offset: true }).nullable().optional().openapi({ description: 'the crm_updated_at you last read; stale → 409 conflict' }),
  })
  .openapi('UpdateCrmLead');

export const AddCrmNoteBody = z.strictObject({ text: z.string().max(NOTE_MAX_CHARS).refine((t) => t.trim().length > 0, { message: 'must not be empty' }) }).openapi('AddCrmNote');

export const LeadResponse = z.object({ lead: CrmLead });
export const ConflictResponse = z.object({ error: z.object({ code: z.literal('conflict'), message: z.string() }), lead: CrmLead });
