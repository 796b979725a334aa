// Auto-protect's second half (agency-tools-and-bridge.md §3: "buying a reserve always waits for approval"): when the
// daily tick parks a mailbox and the client has no ready reserve, a reserve is PROPOSED into the client's plan, never
// bought. Preferred: one more mailbox on a domain of the client that has room under the rule's mailboxes per
// domain; else a new look-alike domain (buy, DNS, mailboxes) that the registrar quotes at or under the rule's
// maximum price; else a note that a person must find one. Once per parking: the audit row
// `mailbox.reserve_proposed` (target the mailbox, detail.parked_at) marks it, read in the same transaction.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { auditLog, clients } from '../../schema';
import { writeAudit } from '../agency/audit';
import { rows, type Db } from '../db/types';
import { proposeStepsIn } from '../plans/propose';
import { inTx, type PlanActor } from '../plans/rows';
import type { Services } from '../services';
import { BUILTIN_PATTERNS, candidateNames, slugOf } from './domain_options';
import { infraStepRequests, type InfraStepRequest } from './propose_steps';
import { readDomainRule, type DomainRule } from './rule';
import { MAX_MAILBOXES_PER_STEP } from './step_params';

export const RESERVE_PROPOSED = 'mailbox.reserve_proposed';
/** Names asked of the registrar for a new reserve domain: one call, at most. */
const NEW_DOMAIN_CANDIDATES = 20;

/** Returns how many plan steps it added (0 when every mailbox already had its proposal). */
export async function proposeReserves(services: Services, at: Date, orgId: string, clientId: string, parked: { id: string; parkedAt: Date }[]): Promise<number> {
  return services.db.transaction(async (tx) => {
    // The client's row lock serialises this with other proposals for the client (and a duplicated tick).
    const [client] = await tx.select().from(clients).where(and(eq(clients.id, clientId), eq(clients.orgId, orgId))).for('update');
    if (!client) return 0;
    const marks = await tx
      .select({ target: auditLog.target, detail: auditLog.detail })
      .from(auditLog)
      .where(and(eq(auditLog.orgId, orgId), eq(auditLog.action, RESERVE_PROPOSED), inArray(auditLog.target, parked.map((p) => `mailbox:${p.id}`))));
    const done = new Set(marks.map((m) => `${m.target}|${(m.detail as { parked_at?: string }).parked_at}`));
    const open = parked.filter((p) => !done.has(`mailbox:${p.id}|${p.parkedAt.toISOString()}`));
    if (open.length === 0) return 0;

    const rule = await readDomainRule(tx, orgId, clientId);
    const req = await roomOnOwnDomains(tx, orgId, clientId, rule, open.length);
    const placed = (req.mailboxes ?? []).reduce((s, m) => s + m.count, 0);
    const who: PlanActor = { services: inTx(services, tx), orgId, actor: 'system', now: at, detail: { auto_protect: { parked_mailbox_ids: open.map((p) => p.id) } } };
    let requests = infraStepRequests(req);
    let how = placed > 0 ? 'mailboxes_on_own_domain' : '';
    if (placed < open.length) {
      const domain = await newReserveDomain(services, tx, orgId, client.name, rule);
      const count = Math.min(open.length - placed, rule.mailboxes_per_domain, MAX_MAILBOXES_PER_STEP);
      if (domain) {
        requests = [...requests, ...infraStepRequests({ buy: [{ domain, max_price_cents: rule.max_price_cents }], dns: [{ domain }], mailboxes: [{ domain, count }] })];
        how = how ? `${how}+new_domain` : 'new_domain';
      } else {
        const text = `Auto-protect parked ${open.length} mailbox${open.length === 1 ? '' : 'es'} and no reserve is ready: choose a new domain (domain_options, choose_domains) for ${open.length - placed} more mailbox${open.length - placed === 1 ? '' : 'es'}.`;
        requests = [...requests, { kind: 'note', params: { text } }];
        how = how ? `${how}+note` : 'note';
      }
    }
    const out = await proposeStepsIn(tx, who, clientId, requests, { title: `Reserve mailboxes for ${client.name}` });
    for (const p of open) {
      await writeAudit(tx, {
        orgId,
        actor: 'system',
        action: RESERVE_PROPOSED,
        target: `mailbox:${p.id}`,
        detail: { client_id: clientId, parked_at: p.parkedAt.toISOString(), plan_id: out.plan.id, step_ids: out.steps.map((s) => s.id), how },
        at,
      });
    }
    return out.steps.length;
  });
}

/** Mailboxes on the client's DNS-ready domains that have room, counting mailboxes already proposed for them. */
async function roomOnOwnDomains(tx: Db, orgId: string, clientId: string, rule: DomainRule, wanted: number): Promise<InfraStepRequest> {
  const room = await rows<{ name: string; used: number | string; pending: number | string }>(
    tx,
    sql`select d.name,
               (select count(*) from mailboxes m where m.domain_id = d.id and m.status <> 'retired') as used,
               (select coalesce(sum((s.params ->> 'count')::int), 0) from plan_steps s
                 where s.client_id = d.client_id and s.kind = 'create_mailboxes' and s.status in ('waiting', 'approved', 'scheduled', 'running')
                   and s.params ->> 'domain' = d.name) as pending
        from domains d
        where d.org_id = ${orgId}::uuid and d.client_id = ${clientId}::uuid and d.status = 'dns_ready' and not d.listed
        order by d.name`,
  );
  const mailboxes: { domain: string; count: number }[] = [];
  let left = wanted;
  for (const r of room) {
    const free = rule.mailboxes_per_domain - Number(r.used) - Number(r.pending);
    if (free <= 0 || left <= 0) continue;
    const count = Math.min(free, left);
    mailboxes.push({ domain: r.name, count });
    left -= count;
  }
  return mailboxes.length ? { mailboxes } : {};
}

/** The first look-alike name the registrar quotes as available at or under the rule's price, or null. */
async function newReserveDomain(services: Services, tx: Db, orgId: string, clientName: string, rule: DomainRule): Promise<string | null> {
  const stem = rule.stems.length ? rule.stems : [slugOf(clientName)].filter((s): s is string => Boolean(s));
  if (stem.length === 0) return null;
  const all = candidateNames(stem, rule.pattern ? [rule.pattern] : BUILTIN_PATTERNS, rule.tlds);
  if (all.length === 0) return null;
  const taken = await rows<{ name: string }>(
    tx,
    sql`select name from domains where org_id = ${orgId}::uuid and name = any(${sql.param(all)}::text[])
        union select params ->> 'domain' from plan_steps where org_id = ${orgId}::uuid and kind = 'buy_domain'
          and status in ('waiting', 'approved', 'scheduled', 'running') and params ->> 'domain' = any(${sql.param(all)}::text[])`,
  );
  const skip = new Set(taken.map((t) => t.name));
  const candidates = all.filter((d) => !skip.has(d)).slice(0, NEW_DOMAIN_CANDIDATES);
  if (candidates.length === 0) return null;
  const quotes = await services.studio.registrar.check({ db: tx }, candidates);
  const ok = new Set(quotes.filter((q) => q.available && q.price_cents !== null && q.price_cents <= rule.max_price_cents).map((q) => q.domain.toLowerCase()));
  return candidates.find((d) => ok.has(d)) ?? null;
}
