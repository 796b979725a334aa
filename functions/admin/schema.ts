import { z } from '@hono/zod-openapi';
import { GRANTABLE_SCOPES } from '../../lib/auth/scopes';

export const adminSecurity = [{ AdminToken: [] }];
export const OrgIdParam = z.object({ org_id: z.uuid() });

export const Features = z.strictObject({ crm: z.boolean().optional(), agency_tools: z.boolean().optional(), studio: z.boolean().optional() });
export const Org = z.object({ id: z.uuid(), name: z.string(), features: z.object({ crm: z.boolean(), agency_tools: z.boolean(), studio: z.boolean() }), demo: z.boolean() }).openapi('Org');
export const CreateOrgBody = z.strictObject({ name: z.string().trim().min(1).max(200), features: Features.optional(), demo: z.boolean().optional() });
export const UpdateOrgBody = z.strictObject({ name: z.string().trim().min(1).max(200).optional(), features: Features.optional(), demo: z.boolean().optional() });

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
