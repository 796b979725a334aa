import { and, desc, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import { z } from 'zod';
import { poolLeads, sequencePreviews, type SequenceStep } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { readDomainRule } from '../infra/rule';
import type { PoolLeadRow } from '../pool/view';
import { leadValues } from './fields';
import { renderTemplate } from './render';
import { currentVersion } from './view';

/** agency-tools-and-bridge.md §8: preview_sequence renders for up to 3 sample leads. */
export const MAX_PREVIEW_LEADS = 3;

const MailSchema = z.object({
  step: z.number().int().describe('1 for the first mail'),
  send_day: z.number().int().describe('days after the push the mail goes out (the sum of the delays so far)'),
  subject: z.string().nullable().describe('null: a follow-up in the same thread as the previous mail'),
  body: z.string(),
  missing: z.array(z.string()).describe('placeholders this lead has no value for; the text shows [[name?]] there'),
});
export const PreviewSchema = z.object({
  version: z.number().int().describe('the sequence version rendered'),
  created_at: z.string(),
  sender_name: z.string(),
  leads: z.array(z.object({ lead_id: z.string(), email: z.string().nullable(), mails: z.array(MailSchema) })),
});
export type SequencePreview = z.infer<typeof PreviewSchema>;

/** Every step of the sequence for one lead, as the lead would receive it. */
export function renderForLead(steps: readonly SequenceStep[], lead: PoolLeadRow, senderName: string) {
  const values = leadValues(lead, senderName);
  let day = 0;
  const mails = steps.map((s, i) => {
    day += s.delay_days;
    const subject = s.subject === null ? null : renderTemplate(s.subject, values);
    const body = renderTemplate(s.body, values);
    const missing = [...new Set([...(subject?.missing ?? []), ...body.missing])];
    return { step: i + 1, send_day: day, subject: subject?.text ?? null, body: body.text, missing };
  });
  return { lead_id: lead.id, email: lead.email, mails };
}

/**
 * The name the mails sign with: the first sender name of the client's domain rule (the names its mailboxes are
 * created under), else the client's own name.
 */
async function senderNameOf(db: Db, orgId: string, clientId: string, clientName: string) {
  const rule = await readDomainRule(db, orgId, clientId);
  return rule.sender_names.find((n) => n.trim())?.trim() ?? clientName;
}

/** The named leads (each must be this client's) in the order given, or the newest leads of the pool with an email. */
async function sampleLeads(db: Db, orgId: string, clientId: string, leadIds: readonly string[] | undefined): Promise<PoolLeadRow[]> {
  const mine = and(eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, clientId));
  if (!leadIds) {
    return db
      .select()
      .from(poolLeads)
      .where(and(mine, isNotNull(poolLeads.email), ne(poolLeads.status, 'removed')))
      .orderBy(desc(poolLeads.createdAt), desc(poolLeads.id))
      .limit(MAX_PREVIEW_LEADS);
  }
  const rows = await db.select().from(poolLeads).where(and(mine, inArray(poolLeads.id, [...leadIds])));
  const byId = new Map(rows.map((r) => [r.id, r]));
  const unknown = leadIds.filter((id) => !byId.has(id));
  if (unknown.length) throw new ApiError('not_found', `lead ${unknown.join(', ')} not found in this client's pool`);
  return leadIds.map((id) => byId.get(id)!);
}

/**
 * Renders the sequence in force for up to 3 sample leads. Its one write is the stored answer (the client's last
 * preview, replaced): nothing about the account, leads or sending changes, so no audit row.
 */
export async function previewSequence(call: AgencyCall, input: { client_id: string; lead_ids?: string[] }): Promise<{ preview: SequencePreview }> {
  const { orgId } = call.auth;
  const db = call.services.db;
  const client = await findClient(db, orgId, input.client_id);
  const sequence = await currentVersion(db, orgId, client.id);
  if (!sequence) throw new ApiError('conflict', 'the client has no sequence yet: save one with update_sequence first');
  const leads = await sampleLeads(db, orgId, client.id, input.lead_ids);
  const senderName = await senderNameOf(db, orgId, client.id, client.name);
  const preview: SequencePreview = {
    version: sequence.version,
    created_at: call.now.toISOString(),
    sender_name: senderName,
    leads: leads.map((lead) => renderForLead(sequence.steps, lead, senderName)),
  };
  const row = { orgId, version: preview.version, body: preview as unknown as Record<string, unknown>, createdBy: call.actor, createdAt: call.now };
  await db
    .insert(sequencePreviews)
    .values({ clientId: client.id, ...row })
    .onConflictDoUpdate({ target: sequencePreviews.clientId, set: row });
  return { preview };
}

/** The last stored preview (null: none yet) and whether the sequence has moved on since it was rendered. */
export async function getSequencePreview(call: AgencyCall, input: { client_id: string }): Promise<{ preview: SequencePreview | null; stale: boolean }> {
  const { orgId } = call.auth;
  const db = call.services.db;
  const client = await findClient(db, orgId, input.client_id);
  const [stored] = await db
    .select()
    .from(sequencePreviews)
    .where(and(eq(sequencePreviews.orgId, orgId), eq(sequencePreviews.clientId, client.id)));
  if (!stored) return { preview: null, stale: false };
  const current = await currentVersion(db, orgId, client.id);
  return { preview: stored.body as unknown as SequencePreview, stale: (current?.version ?? 0) > stored.version };
}
