import { findClient } from '../agency/clients/view';
import type { Applied, Preview, TwoStepDef } from '../agency/confirm';
import type { AgencyCall } from '../agency/operation';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { dryRun, dryRunLeads, type DryRun } from './dry_run';
import { loadRecipe } from './load';
import { DRY_RUN_PASSED } from './versions';

export type PreviewRecipeInput = { client_id: string; recipe_id: string; lead_ids?: string[]; version?: 'live' | 'draft'; confirm_token?: string };

export type RecipePreview = DryRun & {
  recipe: { id: string; name: string; live_version: number | null; draft_version: number | null };
  version: number;
  version_kind: 'live' | 'draft';
  passed: boolean;
};

export type DryRunResult = {
  dry_run: { recipe_id: string; version: number; version_kind: 'live' | 'draft'; passed: true; leads: number; credits_if_run: number };
};

async function preview(call: AgencyCall, input: PreviewRecipeInput, db: Db): Promise<Preview<RecipePreview>> {
  const orgId = call.auth.orgId;
  await findClient(db, orgId, input.client_id);
  const loaded = await loadRecipe(db, orgId, input.client_id, input.recipe_id);
  const { recipe } = loaded;
  // Default: the draft when there is one (what is about to change), else the live version.
  const kind = input.version ?? (recipe.draftVersion !== null ? 'draft' : 'live');
  const version = kind === 'draft' ? recipe.draftVersion : recipe.liveVersion;
  const definition = kind === 'draft' ? loaded.draft : loaded.live;
  if (version === null || !definition) {
    throw new ApiError('conflict', `recipe "${recipe.name}" has no ${kind} version${kind === 'draft' ? ` (live is version ${recipe.liveVersion})` : ' yet: nothing has been made live'}; preview version "${kind === 'draft' ? 'live' : 'draft'}" instead`);
  }
  const leads = await dryRunLeads(db, orgId, input.client_id, input.lead_ids);
  const run = await dryRun(call.services, db, { orgId, clientId: input.client_id, now: call.now }, definition, leads);
  const passed = run.failed === 0 && leads.length > 0;
  const answer: RecipePreview = {
    recipe: { id: recipe.id, name: recipe.name, live_version: recipe.liveVersion, draft_version: recipe.draftVersion },
    version,
    version_kind: kind,
    passed,
    ...run,
  };
  const blocked =
    leads.length === 0
      ? { blockedBy: 'dry_run_failed' as const, blockedMessage: "the client's pool has no leads to dry-run the recipe on; import leads first" }
      : run.failed > 0
        ? { blockedBy: 'dry_run_failed' as const, blockedMessage: `the dry run failed on ${run.failed} cell${run.failed === 1 ? '' : 's'}; fix the recipe (update_recipe) and preview again` }
        : {};
  return {
    preview: answer,
    // The confirm records that this version passed on these leads as they were: a change to either is stale.
    state: { version, leads: leads.map((l) => [l.id, l.updatedAt.toISOString()]) },
    credits: 0,
    ...blocked,
  };
}

async function apply(call: AgencyCall, input: PreviewRecipeInput, _tx: Db, p: Preview<RecipePreview>): Promise<Applied<DryRunResult>> {
  const v = p.preview;
  return {
    result: { dry_run: { recipe_id: v.recipe.id, version: v.version, version_kind: v.version_kind, passed: true, leads: v.leads.length, credits_if_run: v.credits_if_run } },
    // The audit row is the record: makeDraftLive({ requireDryRun: true }) looks for it (lib/recipes/versions.ts).
    audit: {
      action: DRY_RUN_PASSED,
      target: `recipe:${v.recipe.id}`,
      detail: { client_id: input.client_id, version: v.version, lead_ids: v.leads.map((l) => l.lead_id), credits_if_run: v.credits_if_run },
    },
  };
}

/**
 * preview_recipe: a dry run on at most 10 leads, writing nothing and costing nothing. Confirming records that this
 * version passed its dry run (the record a plan step needs before it may make a draft live); a failed dry run gets no
 * confirm token (blocked_by dry_run_failed).
 */
export const previewRecipe: TwoStepDef<PreviewRecipeInput, RecipePreview, DryRunResult> = { tool: 'preview_recipe', preview, apply };
