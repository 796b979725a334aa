import { sql } from 'drizzle-orm';
import type { Db } from '../../lib/db/types';

/**
 * A fingerprint of everything an organization's requests can write: a refused request must leave it unchanged.
 * Blocked sends are recorded by design (decisions `send.%`), so they are left out. Shared by the REST and MCP fuzz.
 */
export async function writesOf(db: Db, orgId: string): Promise<string> {
  const r = (await db.execute(sql`select
      (select count(*) from organizations) as orgs,
      (select count(*) from clients where org_id = ${orgId}) as clients,
      (select max(updated_at) from clients where org_id = ${orgId}) as clients_updated,
      (select count(*) from campaigns where org_id = ${orgId}) as campaigns,
      (select count(*) from api_keys where org_id = ${orgId}) as keys,
      (select count(*) from leads where org_id = ${orgId}) as leads,
      (select max(updated_at) from leads where org_id = ${orgId}) as leads_updated,
      (select count(*) from replies where org_id = ${orgId}) as replies,
      (select count(*) from events where org_id = ${orgId}) as events,
      (select count(*) from decisions where org_id = ${orgId} and action not like 'send.%') as decisions,
      (select count(*) from reports where org_id = ${orgId}) as reports,
      (select count(*) from audit_log where org_id = ${orgId}) as audit,
      (select count(*) from confirm_tokens where org_id = ${orgId}) as confirm_tokens,
      (select count(*) from playbook_versions where org_id = ${orgId}) as playbooks,
      (select count(*) from credit_ledger where org_id = ${orgId}) as credit_ledger,
      (select agency_docs from organizations where id = ${orgId}) as agency_docs,
      (select count(*) from suppressions where org_id = ${orgId}) as suppressions,
      (select count(*) from pool_leads where org_id = ${orgId}) as pool_leads,
      (select max(updated_at) from pool_leads where org_id = ${orgId}) as pool_updated,
      (select count(*) from pool_columns where org_id = ${orgId}) as pool_columns,
      (select count(*) from lead_imports where org_id = ${orgId}) as lead_imports,
      (select count(*) from sequencer_snapshots where org_id = ${orgId}) as snapshots,
      (select count(*) from icps where org_id = ${orgId}) as icps,
      (select count(*) from segments where org_id = ${orgId}) as segments,
      (select count(*) from bridge_hooks where org_id = ${orgId}) as bridge_hooks,
      (select count(*) from table_destinations where org_id = ${orgId}) as table_destinations,
      (select count(*) from table_pushes where org_id = ${orgId}) as table_pushes,
      (select count(*) from finder_runs where org_id = ${orgId}) as finder_runs,
      (select count(*) from recipes where org_id = ${orgId}) as recipes,
      (select count(*) from recipe_templates where org_id = ${orgId}) as recipe_templates,
      (select count(*) from formulas where org_id = ${orgId}) as formulas,
      (select count(*) from enrich_runs where org_id = ${orgId}) as enrich_runs,
      (select count(*) from lead_signals where org_id = ${orgId}) as lead_signals,
      (select count(*) from plans where org_id = ${orgId}) as plans,
      (select count(*) from plan_steps where org_id = ${orgId}) as plan_steps,
      (select count(*) from agreements where org_id = ${orgId}) as agreements,
      (select count(*) from meetings where org_id = ${orgId}) as meetings,
      (select max(updated_at) from domain_rules where org_id = ${orgId}) as domain_rules_updated,
      (select count(*) from domains where org_id = ${orgId}) as domains,
      (select max(updated_at) from mailboxes where org_id = ${orgId}) as mailboxes_updated,
      (select count(*) from mailboxes where org_id = ${orgId}) as mailboxes,
      (select count(*) from mailbox_campaigns where org_id = ${orgId}) as mailbox_campaigns,
      (select count(*) from sim_orders where org_id = ${orgId}) as sim_orders,
      (select count(*) from sequence_versions where org_id = ${orgId}) as sequence_versions,
      (select max(created_at) from sequence_previews where org_id = ${orgId}) as sequence_previews,
      (select max(updated_at) from batches where org_id = ${orgId}) as batches_updated,
      (select count(*) from batches where org_id = ${orgId}) as batches,
      (select max(updated_at) from batch_leads where org_id = ${orgId}) as batch_leads_updated,
      (select count(*) from batch_writes where org_id = ${orgId}) as batch_writes,
      (select count(*) from review_edits where org_id = ${orgId}) as review_edits,
      (select max(updated_at) from learned_rules where org_id = ${orgId}) as learned_rules_updated,
      (select max(updated_at) from studio_campaigns where org_id = ${orgId}) as studio_campaigns_updated,
      (select count(*) from studio_campaign_leads where org_id = ${orgId}) as studio_campaign_leads`)) as unknown as { rows: unknown[] };
  return JSON.stringify(r.rows[0]);
}
