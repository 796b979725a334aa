import { z } from 'zod';
import { boolArg, idArg, intArg } from '../../lib/agency/args';
import { defineOperation } from '../../lib/agency/define';
import type { Operation } from '../../lib/agency/operation';
import type { AuthContext } from '../../lib/auth/keys';
import { scopeRefusal } from '../../lib/auth/scopes';
import { crmTenantOf } from '../../lib/crm/access';
import { addCrmNote } from '../../lib/crm/add_note';
import { getCrmLead } from '../../lib/crm/get_lead';
import { listCrmLeads } from '../../lib/crm/list_leads';
import { updateCrmLead } from '../../lib/crm/update_lead';
import { ApiError } from '../../lib/errors';
import { ToolServer } from '../../lib/mcp/tool_server';
import { AddCrmNoteBody, CrmLeadPage, LeadResponse, ListCrmLeadsQuery, UpdateCrmLeadBody } from '../crm/schema';

// The CRM tool server (spec §5.6, agency-operator.md §1): the CRM API's four verbs as tools, for keys locked to
// one client with crm.* scopes, with the CRM API's visibility and its 60-writes-a-minute limit (in the verbs).

const q = ListCrmLeadsQuery.shape;
const crmDeps = (call: { services: { db: never; limits: never; config: { portalUrl: string } }; auth: AuthContext; now: Date }) => ({
  db: call.services.db,
  limits: call.services.limits,
  auth: call.auth,
  now: call.now,
  portalUrl: call.services.config.portalUrl,
});

const ops = [
  defineOperation({
    name: 'crm_list_leads',
    rest: 'core',
    method: 'GET',
    path: '/v1/crm/leads',
    scope: 'crm.read',
    toolset: 'crm',
    write: false,
    summary: "Page through the CRM leads the key's client sees. Follow next_cursor while has_more; for incremental sync pass the first page's server_time of your previous run as updated_since.",
    input: z.object({ cursor: q.cursor, limit: intArg(1, 100).optional(), classification: q.classification, phase: q.phase, has_next_action: boolArg().optional(), updated_since: q.updated_since }).strict(),
    output: CrmLeadPage,
    run: async (call, input) => {
      const page = await listCrmLeads({ db: call.services.db, tenant: crmTenantOf(call.auth), input: { ...input, limit: input.limit ?? 50 } as never, portalUrl: call.services.config.portalUrl });
      return { body: { leads: page.leads, next_cursor: page.next_cursor, has_more: page.has_more, server_time: page.server_time } };
    },
  }),
  defineOperation({
    name: 'crm_get_lead',
    rest: 'core',
    method: 'GET',
    path: '/v1/crm/leads/{lead_id}',
    scope: 'crm.read',
    toolset: 'crm',
    write: false,
    summary: 'One CRM lead with its notes, phase, deal and next action.',
    input: z.object({ lead_id: idArg('lead') }).strict(),
    output: LeadResponse,
    run: async (call, input) => ({
      body: { lead: await getCrmLead({ db: call.services.db, tenant: crmTenantOf(call.auth), leadId: input.lead_id, portalUrl: call.services.config.portalUrl }) },
    }),
  }),
  defineOperation({
    name: 'crm_update_lead',
    rest: 'core',
    method: 'PATCH',
    path: '/v1/crm/leads/{lead_id}',
    scope: 'crm.write',
    toolset: 'crm',
    write: true,
    idempotent: true,
    summary: 'Set phase, deal and next action. Pass the crm_updated_at you read as if_updated_at: a lead changed since is a conflict carrying the current lead.',
    input: z.object({ lead_id: idArg('lead'), ...UpdateCrmLeadBody.shape }).strict(),
    output: LeadResponse,
    run: async (call, { lead_id, ...input }) => ({ body: { lead: await updateCrmLead({ deps: crmDeps(call as never), leadId: lead_id, input }) } }),
  }),
  defineOperation({
    name: 'crm_add_note',
    rest: 'core',
    method: 'POST',
    path: '/v1/crm/leads/{lead_id}/notes',
    scope: 'crm.write',
    toolset: 'crm',
    write: true,
    summary: 'Add a note to a CRM lead (notes are never replaced or removed).',
    input: z.object({ lead_id: idArg('lead'), ...AddCrmNoteBody.shape }).strict(),
    output: LeadResponse,
    run: async (call, input) => ({ status: 201, body: { lead: await addCrmNote({ deps: crmDeps(call as never), leadId: input.lead_id, text: input.text }) } }),
  }),
] as unknown as Operation[];

/** The CRM API's own gate: feature, a client-locked key, then the tool's scope (a read-only key cannot write). */
function crmGate(op: Operation, auth: AuthContext) {
  requireCrmToolKey(auth);
  const refusal = scopeRefusal(auth, op.scope);
  if (refusal === 'missing') throw new ApiError('insufficient_scope', `this key lacks the ${op.scope} scope`);
  if (refusal === 'read_only') throw new ApiError('insufficient_scope', `this key is read-only: it may not use the ${op.scope} scope, which changes data`);
}

/** Every request to /mcp/crm: the organization's CRM feature and a key locked to one client. */
export function requireCrmToolKey(auth: AuthContext) {
  if (!auth.features.crm) throw new ApiError('feature_not_enabled', 'the crm feature is not enabled for this organization');
  if (!auth.clientId) throw new ApiError('feature_not_enabled', 'the CRM tool server needs a key locked to one client');
}

export const crmToolServer = new ToolServer({
  ops,
  name: 'reply-intelligence-crm',
  version: '1.0.0',
  instructions: "CRM tools over the leads one client sees. Page with next_cursor; sync incrementally with updated_since = the first page's server_time of your previous run. At most 60 writes a minute per key.",
  gate: crmGate,
  mayList: (op, auth) => scopeRefusal(auth, op.scope) === null,
});
