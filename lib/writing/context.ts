// What a writing round reads besides the batch: the sequence in force, the sender name, the playbook, the agency
// docs, the client's active learned rules, and each lead's values (custom columns only where a person switched
// them on for writing). Every query is filtered by organization and client.
import { and, asc, eq, inArray } from 'drizzle-orm';
import { learnedRules, organizations, poolColumns, poolLeads } from '../../schema';
import type { ClientRow } from '../agency/clients/view';
import type { Db } from '../db/types';
import { readDomainRule } from '../infra/rule';
import { parseRule } from '../learning/rules';
import { leadValues } from '../sequences/fields';
import type { SequenceVersionRow } from '../sequences/view';
import type { ActiveRule, WriterContext, WriterLead } from './port';

export async function activeRules(db: Db, orgId: string, clientId: string): Promise<ActiveRule[]> {
  const rows = await db
    .select({ id: learnedRules.id, kind: learnedRules.kind, rule: learnedRules.rule })
    .from(learnedRules)
    .where(and(eq(learnedRules.orgId, orgId), eq(learnedRules.clientId, clientId), eq(learnedRules.status, 'active')))
    .orderBy(asc(learnedRules.createdAt), asc(learnedRules.key));
  return rows.flatMap((r) => {
    const spec = parseRule(r.kind, r.rule);
    return spec ? [{ id: r.id, spec }] : [];
  });
}

/** The name the mails sign with: as preview_sequence, the domain rule's first sender name, else the client's name. */
async function senderName(db: Db, orgId: string, client: ClientRow) {
  const rule = await readDomainRule(db, orgId, client.id);
  return rule.sender_names.find((n) => n.trim())?.trim() ?? client.name;
}

export async function writerContext(db: Db, orgId: string, client: ClientRow, sequence: SequenceVersionRow): Promise<WriterContext> {
  const [org] = await db.select({ docs: organizations.agencyDocs }).from(organizations).where(eq(organizations.id, orgId));
  return {
    steps: sequence.steps,
    senderName: await senderName(db, orgId, client),
    playbook: client.playbook ? { version: client.playbookVersion, signature: client.playbook.signature } : null,
    agencyDocs: org?.docs ?? '',
    rules: await activeRules(db, orgId, client.id),
  };
}

/** The leads' values in the order of `ids`; a lead missing from the pool is left out (the caller counts it). */
export async function writerLeads(db: Db, orgId: string, clientId: string, ids: readonly string[], sender: string): Promise<WriterLead[]> {
  if (ids.length === 0) return [];
  const [rows, columns] = await Promise.all([
    db.select().from(poolLeads).where(and(eq(poolLeads.orgId, orgId), eq(poolLeads.clientId, clientId), inArray(poolLeads.id, [...ids]))),
    db.select({ key: poolColumns.key }).from(poolColumns).where(and(eq(poolColumns.orgId, orgId), eq(poolColumns.clientId, clientId), eq(poolColumns.useForWriting, true))),
  ]);
  // Spec: the writer uses a custom column only after a person switches on its use for writing.
  const allowed = new Set(columns.map((c) => `custom.${c.key}`));
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const row = byId.get(id);
    if (!row) return [];
    const values = Object.fromEntries(Object.entries(leadValues(row, sender)).filter(([k]) => !k.startsWith('custom.') || allowed.has(k)));
    return [{ id, values }];
  });
}
