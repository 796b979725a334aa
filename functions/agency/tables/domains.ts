import type { Operation } from '../../../lib/agency/operation';
import { chooseDomainsOp } from '../tools/choose_domains';
import { domainOptionsOp } from '../tools/domain_options';
import { getDomainRuleOp } from '../tools/get_domain_rule';
import { listDomainWorkspacesOp } from '../tools/list_domain_workspaces';
import { setDomainRuleOp } from '../tools/set_domain_rule';
import { setDomainWorkspaceOp } from '../tools/set_domain_workspace';

/** Domains (Studio, issue 17): the domain rule, look-alike options, choosing domains into the plan, workspaces. */
export const DOMAIN_OPERATIONS = [domainOptionsOp, getDomainRuleOp, setDomainRuleOp, chooseDomainsOp, listDomainWorkspacesOp, setDomainWorkspaceOp] as unknown as Operation[];
