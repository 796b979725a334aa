// A client's domain rule with its defaults (a client that never set one has the defaults), as every infrastructure
// verb reads it: domain options, choose_domains, the mailbox steps, the daily tick's active cap.
import { and, eq } from 'drizzle-orm';
import { domainRules } from '../../schema';
import type { Db } from '../db/types';

export type DomainRule = {
  client_id: string;
  stems: string[];
  pattern: string | null;
  tlds: string[];
  max_price_cents: number;
  mailboxes_per_domain: number;
  daily_cap: number;
  redirect_to: string | null;
  sender_names: string[];
  workspace: { id: string; name: string | null } | null;
  updated_at: string | null;
  updated_by: string | null;
};

export const RULE_DEFAULTS = { stems: [] as string[], pattern: null, tlds: ['com'], max_price_cents: 1500, mailboxes_per_domain: 3, daily_cap: 30, redirect_to: null, sender_names: [] as string[] };

export async function readDomainRule(db: Db, orgId: string, clientId: string): Promise<DomainRule> {
  const [r] = await db
    .select()
    .from(domainRules)
    .where(and(eq(domainRules.orgId, orgId), eq(domainRules.clientId, clientId)))
    .limit(1);
  if (!r) return { client_id: clientId, ...RULE_DEFAULTS, workspace: null, updated_at: null, updated_by: null };
  return {
    client_id: clientId,
    stems: r.stems,
    pattern: r.pattern,
    tlds: r.tlds,
    max_price_cents: r.maxPriceCents,
    mailboxes_per_domain: r.mailboxesPerDomain,
    daily_cap: r.dailyCap,
    redirect_to: r.redirectTo,
    sender_names: r.senderNames,
    workspace: r.workspaceId ? { id: r.workspaceId, name: r.workspaceName } : null,
    updated_at: r.updatedAt.toISOString(),
    updated_by: r.updatedBy,
  };
}
