import { and, eq } from 'drizzle-orm';
import { domains } from '../../../schema';
import { dnsRecordsFor } from '../../infra/dns_plan';
import { domainProblem, orgDomain } from '../../infra/domain_of_step';
import { readDomainRule } from '../../infra/rule';
import { SetupDnsParams } from '../../infra/step_params';
import type { StepKind } from '../step_kind';
import { oncePerStep } from './effect';

/**
 * Writes a bought domain's SPF, MX, DKIM and DMARC records and its redirect (the rule's redirect_to) at the DNS
 * host, then marks it dns_ready. The DNS port skips records that exist, so a repeated run writes nothing twice;
 * records cannot be "unwritten" safely once mail flows, so it is not undoable.
 */
export const setupDnsStep: StepKind<SetupDnsParams> = {
  kind: 'setup_dns',
  summary: (p) => `Set up DNS for ${p.domain} (SPF, DKIM, DMARC, MX and the redirect)`,
  params: SetupDnsParams,
  buys: false,
  undoable: false,
  credits: () => 0,
  dryRun: async (ctx, p) => {
    const problem = await domainProblem(ctx, p.domain);
    return problem ? [problem] : [];
  },
  run: async (ctx, p) => {
    const { db, studio } = ctx.services;
    const domain = await orgDomain(db, ctx.orgId, p.domain);
    if (!domain || domain.clientId !== ctx.clientId) throw new Error(`${p.domain} is not a domain of this client`);
    if (domain.status !== 'bought' && domain.status !== 'dns_ready') throw new Error(`${p.domain}: domain not bought yet (status ${domain.status})`);
    const rule = await readDomainRule(db, ctx.orgId, ctx.clientId);
    const records = await dnsRecordsFor(p.domain);
    const out = await studio.dnsRecords.setup({ db }, { orgId: ctx.orgId, domain: p.domain, records, redirectTo: rule.redirect_to });
    if (!out.ok) throw new Error(`DNS for ${p.domain} could not be written (${out.reason}): ${out.detail}`);
    return oncePerStep(ctx, 'setup_dns', async (tx) => {
      await tx
        .update(domains)
        .set({ status: 'dns_ready', dnsReadyAt: domain.dnsReadyAt ?? ctx.now, redirectTo: rule.redirect_to, updatedAt: ctx.now })
        .where(and(eq(domains.id, domain.id), eq(domains.orgId, ctx.orgId)));
      return {
        domain: p.domain,
        records: records.map((r) => `${r.type} ${r.name}`),
        created: out.created,
        existing: out.existing,
        redirect_to: rule.redirect_to,
        ...(out.simulated && { simulated: true }),
      };
    });
  },
};
