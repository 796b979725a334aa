import { and, eq, inArray } from 'drizzle-orm';
import { mailboxes } from '../../../schema';
import { domainProblem, orgDomain } from '../../infra/domain_of_step';
import { mailboxCandidates, senderNamesFor } from '../../infra/mailbox_names';
import { NORMAL_START_CAP } from '../../infra/ramp';
import { readDomainRule } from '../../infra/rule';
import { CreateMailboxesParams } from '../../infra/step_params';
import { dayIn } from '../../pool/day';
import { orgTimeZone } from '../rows';
import type { StepKind } from '../step_kind';

const NO_WORKSPACE = 'choose a domain workspace first (set_domain_workspace)';

/**
 * Creates `count` mailboxes on a client's DNS-ready domain in the chosen workspace; each starts warming today (the
 * organization's day). A mailbox is a paid seat, so the step buys and is not undoable. Idempotent without
 * oncePerStep: each mailbox row carries the step id (created_by_step) and is written right after the provider made
 * it, so a repeated run counts what this step already made and creates only the rest; the provider answers an
 * address it has as `repeated`, and the address index keeps one row per address.
 */
export const createMailboxesStep: StepKind<CreateMailboxesParams> = {
  kind: 'create_mailboxes',
  summary: (p) => `Create ${p.count} mailbox${p.count === 1 ? '' : 'es'} on ${p.domain}`,
  params: CreateMailboxesParams,
  buys: true,
  undoable: false,
  credits: () => 0,
  dryRun: async (ctx, p) => {
    const problems: string[] = [];
    const rule = await readDomainRule(ctx.services.db, ctx.orgId, ctx.clientId);
    if (!rule.workspace) problems.push(`No domain workspace for ${p.domain}'s mailboxes: ${NO_WORKSPACE}.`);
    const problem = await domainProblem(ctx, p.domain);
    if (problem) problems.push(problem);
    return problems;
  },
  run: async (ctx, p) => {
    const { db, studio, secrets } = ctx.services;
    const domain = await orgDomain(db, ctx.orgId, p.domain);
    if (!domain || domain.clientId !== ctx.clientId) throw new Error(`${p.domain} is not a domain of this client`);
    if (domain.status !== 'dns_ready') throw new Error(`${p.domain}: DNS is not set up yet (status ${domain.status}); the setup_dns step runs first`);
    const rule = await readDomainRule(db, ctx.orgId, ctx.clientId);
    if (!rule.workspace) throw new Error(NO_WORKSPACE);
    const workspaceId = rule.workspace.id;
    const today = dayIn(await orgTimeZone(db, ctx.orgId), ctx.now);

    const mine = () => db.select({ address: mailboxes.address }).from(mailboxes).where(and(eq(mailboxes.orgId, ctx.orgId), eq(mailboxes.createdByStep, ctx.stepId)));
    const onDomain = await db.select({ address: mailboxes.address }).from(mailboxes).where(and(eq(mailboxes.orgId, ctx.orgId), eq(mailboxes.domainId, domain.id)));
    const candidates = mailboxCandidates(p.domain, senderNamesFor(rule.sender_names, p.domain), p.count + onDomain.length);
    const taken = new Set(
      (await db.select({ address: mailboxes.address }).from(mailboxes).where(and(eq(mailboxes.orgId, ctx.orgId), inArray(mailboxes.address, candidates.map((c) => c.address))))).map((r) => r.address),
    );
    let made = (await mine()).length;
    let createdNow = 0;
    let repeated = 0;
    for (const c of candidates) {
      if (made >= p.count) break;
      if (taken.has(c.address)) continue;
      const out = await studio.mailboxProvider.createMailbox({ db }, { orgId: ctx.orgId, workspaceId, address: c.address, firstName: c.firstName, lastName: c.lastName });
      // What was made so far stays (each row is committed); the executor's retry creates the rest.
      if (!out.ok) throw new Error(`mailbox ${c.address} could not be created (${out.reason}): ${out.detail}`);
      if (out.repeated) repeated += 1;
      const inserted = await db
        .insert(mailboxes)
        .values({
          orgId: ctx.orgId,
          clientId: ctx.clientId,
          domainId: domain.id,
          address: c.address,
          displayName: c.displayName,
          workspaceId,
          providerId: out.provider_id,
          credentialEnc: out.credential ? await secrets.encrypt(out.credential) : null,
          createdByStep: ctx.stepId,
          status: 'warming',
          statusSince: today,
          rampStartCap: NORMAL_START_CAP,
          dailyCap: 0,
          createdAt: ctx.now,
          updatedAt: ctx.now,
        })
        .onConflictDoNothing()
        .returning({ id: mailboxes.id });
      if (inserted.length) {
        made += 1;
        createdNow += 1;
      } else {
        // Another run of this step (a lease taken over) made this address: count from the rows, not from this run.
        made = (await mine()).length;
      }
    }
    const rows = await mine();
    if (rows.length < p.count) throw new Error(`only ${rows.length} of ${p.count} mailboxes could be made on ${p.domain}: the candidate addresses are taken`);
    return { domain: p.domain, workspace_id: workspaceId, mailboxes: rows.map((r) => r.address).sort(), created_now: createdNow, repeated_at_provider: repeated, ...(studio.mailboxProvider.kind === 'sim' && { simulated: true }) };
  },
};
