import { z } from 'zod';
import { poolLeads } from '../../schema';

export type PoolLeadRow = typeof poolLeads.$inferSelect;

const ProvenanceSchema = z.record(z.string(), z.object({ source: z.string(), by: z.string(), at: z.string() }));

export const ContactCheckSchema = z.object({
  pool: z.boolean().describe('still in the pool (not removed)'),
  studio_campaigns: z.boolean().describe('checked against own Studio campaigns (pushed or sent)'),
  replies: z.boolean().describe('checked against replies received'),
  sequencer_snapshot: z.object({ checked: z.boolean(), day: z.string().nullable() }).describe("the sending tool's latest daily snapshot and its day (null: none stored yet)"),
});

/** A lead of a client's pool as every agency route shows it (agency-operator.md §4 "Pool lead"). */
export const PoolLeadSchema = z.object({
  id: z.string(),
  email: z.string().nullable(),
  email_status: z.enum(['valid', 'risky', 'invalid', 'unknown']).nullable(),
  first_name: z.string().nullable(),
  last_name: z.string().nullable(),
  full_name: z.string().nullable(),
  company: z.string().nullable(),
  domain: z.string().nullable(),
  website: z.string().nullable(),
  title: z.string().nullable(),
  linkedin_url: z.string().nullable(),
  company_linkedin_url: z.string().nullable(),
  country: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  volume_band: z.enum(['high', 'medium', 'low']).nullable(),
  monthly_volume: z.number().int().nullable(),
  mail_type: z.string().nullable(),
  current_sender: z.string().nullable(),
  hook: z.string().nullable(),
  named_account: z.boolean().nullable(),
  sends_for_customers: z.boolean().nullable(),
  note: z.string().nullable(),
  icp_id: z.string().nullable(),
  status: z.enum(['new', 'waiting_for_email', 'in_batch', 'pushed', 'replied', 'removed']),
  custom: z.record(z.string(), z.union([z.string(), z.number(), z.boolean(), z.null()])),
  provenance: ProvenanceSchema.describe('per field: where its value came from (manual (agency), bridge:<tool>, csv, finder:<provider>, dns), who, when'),
  contact_check: ContactCheckSchema.optional(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type PoolLead = z.infer<typeof PoolLeadSchema>;

export function poolLeadView(r: PoolLeadRow, contactCheck?: PoolLead['contact_check']): PoolLead {
  return {
    id: r.id,
    email: r.email,
    email_status: r.emailStatus,
    first_name: r.firstName,
    last_name: r.lastName,
    full_name: r.fullName,
    company: r.company,
    domain: r.domain,
    website: r.website,
    title: r.title,
    linkedin_url: r.linkedinUrl,
    company_linkedin_url: r.companyLinkedinUrl,
    country: r.country,
    city: r.city,
    state: r.state,
    volume_band: r.volumeBand,
    monthly_volume: r.monthlyVolume,
    mail_type: r.mailType,
    current_sender: r.currentSender,
    hook: r.hook,
    named_account: r.namedAccount,
    sends_for_customers: r.sendsForCustomers,
    note: r.note,
    icp_id: r.icpId,
    status: r.status,
    custom: r.custom,
    provenance: r.provenance,
    ...(contactCheck && { contact_check: contactCheck }),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}
