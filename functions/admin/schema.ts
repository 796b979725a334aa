import { z } from '@hono/zod-openapi';
import { GRANTABLE_SCOPES } from '../../lib/auth/scopes';
import { ianaTimeZone } from '../../lib/orgs/timezone';

export const adminSecurity = [{ AdminToken: [] }];
export const OrgIdParam = z.object({ org_id: z.uuid() });

export const Features = z.strictObject({ crm: z.boolean().optional(), agency_tools: z.boolean().optional(), studio: z.boolean().optional() });
export const Org = z
  .object({
    id: z.uuid(),
    name: z.string(),
    features: z.object({ crm: z.boolean(), agency_tools: z.boolean(), studio: z.boolean() }),
    demo: z.boolean(),
    client_limit: z.number().int(),
    credits: z.number().int().openapi({ description: 'the credit balance' }),
    paying: z.boolean(),
    timezone: z.string(),
    push_gate_open: z.boolean(),
    studio_paused: z.boolean(),
  })
  .openapi('Org');
// The agency account's settings (agency-operator.md §5); absent on create = the default in the description.
const OrgSettings = {
  client_limit: z.number().int().min(0).max(10_000).optional().openapi({ description: 'how many clients the plan allows; default 10' }),
  credits: z
    .number()
    .int()
    .min(0)
    .max(1_000_000_000)
    .optional()
    .openapi({ description: 'the credit balance, set (not added); default 1000. Each change is a credit_ledger row of the difference (reason admin.set_balance)' }),
  paying: z.boolean().optional().openapi({ description: 'default false' }),
  timezone: z
    .string()
    .max(64)
    .refine((v) => ianaTimeZone(v) !== null, { message: 'not an IANA time zone name (such as Europe/Berlin or UTC)' })
    .optional()
    .openapi({ description: 'IANA time zone name; default UTC. Plan steps run at 08:00 there', example: 'Europe/Berlin' }),
  push_gate_open: z.boolean().optional().openapi({ description: 'default false' }),
  studio_paused: z.boolean().optional().openapi({ description: 'default false' }),
};
export const CreateOrgBody = z.strictObject({ name: z.string().trim().min(1).max(200), features: Features.optional(), demo: z.boolean().optional(), ...OrgSettings });
export const UpdateOrgBody = z.strictObject({ name: z.string().trim().min(1).max(200).optional(), features: Features.optional(), demo: z.boolean().optional(), ...OrgSettings });

export const Portal = z.strictObject({
  show_hot: z.boolean().optional(),
  show_warm: z.boolean().optional(),
  show_cold: z.boolean().optional(),
  show_not_interested: z.boolean().optional(),
});
export const Client = z.object({ id: z.uuid(), name: z.string(), portal: z.record(z.string(), z.boolean()) }).openapi('Client');
export const CreateClientBody = z.strictObject({ name: z.string().trim().min(1).max(200), portal: Portal.optional() });
export const UpdateClientBody = z.strictObject({ name: z.string().trim().min(1).max(200).optional(), portal: Portal.optional() });

const count = z.number().int().min(0).max(100_000_000);
export const CreateCampaignBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  client_id: z.uuid().nullable().optional(),
  status: z.enum(['active', 'paused', 'completed']).optional(),
  sent: count.optional(),
  opened: count.optional(),
  provider: z
    .enum(['instantly', 'smartlead', 'emailbison', 'generic'])
    .nullable()
    .optional()
    .openapi({ description: 'the sending tool the campaign runs in; required with provider_campaign_id' }),
  provider_campaign_id: z
    .string()
    .trim()
    .min(1)
    .max(200)
    .nullable()
    .optional()
    .openapi({ description: "the sending tool's id of this campaign: inbound reply webhooks are matched to it; unique per organization" }),
});
export const UpdateCampaignBody = CreateCampaignBody.partial();

export const Key = z
  .object({
    id: z.uuid(),
    name: z.string(),
    prefix: z.enum(['live', 'partner']),
    scopes: z.array(z.string()),
    client_id: z.uuid().nullable(),
    autonomy_level: z.number().int(),
    rate_limit_per_minute: z.number().int(),
    daily_credit_limit: z.number().int(),
    read_only: z.boolean(),
    kind: z.enum(['api', 'agency']),
    revoked: z.boolean(),
    created_at: z.string(),
  })
  .openapi('Key');
const Scopes = z.array(z.enum(GRANTABLE_SCOPES)).min(1).max(20);
export const CreateKeyBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  prefix: z.enum(['live', 'partner']).optional(),
  scopes: Scopes.optional(),
  client_id: z.uuid().nullable().optional(),
  autonomy_level: z.number().int().min(0).max(3).optional(),
  rate_limit_per_minute: z.number().int().min(10).max(1000).optional(),
  daily_credit_limit: z.number().int().min(10).max(10_000).optional(),
  read_only: z.boolean().optional(),
  kind: z
    .enum(['api', 'agency'])
    .optional()
    .openapi({
      description:
        'default api. An agency key (the agency tool server) always holds agency.read and agency.write; scopes may add only replies.send, replies.approve, leads.read, reports.read, campaigns.read and agency.plans.approve; never * or a client_id',
    }),
});
export const UpdateKeyBody = z.strictObject({ autonomy_level: z.number().int().min(0).max(3).optional(), scopes: Scopes.optional(), revoked: z.boolean().optional() });

export const InboundReplyBody = z.strictObject({
  campaign_id: z.uuid(),
  from_email: z.email().max(320),
  from_name: z.string().max(200).nullable().optional(),
  subject: z.string().max(1000).nullable().optional(),
  body: z.string().min(1).max(40_000),
  // At most 5 minutes ahead of the service's clock: checked by the handler, which has the clock.
  received_at: z.iso.datetime({ offset: true }).optional().openapi({ description: 'when the prospect sent it; absent = now; at most 5 minutes in the future' }),
});

export const GenerateReportBody = z.strictObject({ brief_type: z.enum(['friday', 'monday']), client_id: z.uuid().nullable().optional() });

export const DecisionsQuery = z.object({ reply_id: z.uuid().optional(), lead_id: z.uuid().optional() });
export const Decision = z
  .object({ id: z.uuid(), at: z.string(), actor: z.string(), action: z.string(), reply_id: z.uuid().nullable(), lead_id: z.uuid().nullable(), detail: z.record(z.string(), z.unknown()) })
  .openapi('Decision');

export const ProviderCampaign = z
  .object({
    id: z.uuid(),
    name: z.string(),
    provider_campaign_id: z.string(),
    status: z.enum(['active', 'paused', 'completed']),
    imported: z.boolean(),
    imported_campaign_id: z.uuid().nullable().openapi({ description: 'the campaign it was imported as (import_campaigns); null until then' }),
    created_at: z.string(),
  })
  .openapi('ProviderCampaign');
export const CreateProviderCampaignBody = z.strictObject({
  name: z.string().trim().min(1).max(200),
  provider_campaign_id: z.string().trim().min(1).max(200).openapi({ description: "the sending tool's id of the campaign; unique per organization (409 conflict)" }),
  status: z.enum(['active', 'paused', 'completed']).optional().openapi({ description: 'default active' }),
});

export const AuditQuery = z.object({
  actor: z.string().min(1).max(200).optional().openapi({ description: 'exact actor: admin, system, key:<key name>, mcp:<key name>' }),
  action: z.string().min(1).max(200).optional().openapi({ description: 'exact action, e.g. client.created' }),
  limit: z.coerce.number().int().min(1).max(500).default(100).openapi({ description: '1..500, default 100' }),
  cursor: z.uuid().optional().openapi({ description: 'the next_cursor of the previous page' }),
});
export const AuditEntry = z
  .object({
    id: z.uuid(),
    at: z.string(),
    actor: z.string(),
    action: z.string(),
    target: z.string().nullable(),
    detail: z.record(z.string(), z.unknown()),
    credits: z.number().int().openapi({ description: 'credits the write charged (0 for free writes)' }),
  })
  .openapi('AuditEntry');
