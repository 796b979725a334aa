import type { StepKind } from '../step_kind';
import { buyDomainStep } from './buy_domain';
import { createMailboxesStep } from './create_mailboxes';
import { findEmailsStep } from './find_emails';
import { noteStep } from './note';
import { pushBatchStep } from './push_batch';
import { recipeGoLiveStep } from './recipe_go_live';
import { rewriteBatchStep } from './rewrite_batch';
import { runFormulaStep } from './run_formula';
import { setAutoWriteStep } from './set_auto_write';
import { setupDnsStep } from './setup_dns';

/**
 * The kinds this issue ships; each file declares its flags honestly. No import_leads kind: rows do not fit in a
 * step's params, and the bridge and import_leads already bring leads in without a plan.
 */
export const builtinStepKinds: StepKind<any>[] = [noteStep, setAutoWriteStep, recipeGoLiveStep, findEmailsStep, runFormulaStep, buyDomainStep, setupDnsStep, createMailboxesStep, pushBatchStep, rewriteBatchStep];
