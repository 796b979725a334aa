import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { OPERATIONS, TOOLS } from '../../functions/agency/table';
import { agencyToolServer } from '../../functions/mcp/agency_server';

// The operation table pinned to the spec. test/fixtures/agency_tools.json is the spec's tool list
// (agency-tools-and-bridge.md §4 plus list_plans, list_imports and the four tools agency-operator.md §2 places),
// 93 entries with method, path under {base_url} (path parameters named after their resource, agency-operator.md
// §2) and scope. Every tool the table serves must match its entry; the tools of issues 13-16 must all be served.
type Spec = { name: string; method: string; path: string; scope: string };
const SPEC: Spec[] = JSON.parse(readFileSync(new URL('../fixtures/agency_tools.json', import.meta.url), 'utf8'));
const byName = new Map(SPEC.map((s) => [s.name, s]));

const ISSUE_13 = [
  'get_account', 'list_clients', 'get_client', 'get_agency_docs', 'list_campaigns', 'get_inbox_summary', 'get_client_performance',
  'list_followups', 'create_client', 'update_client', 'update_playbook', 'update_agency_docs', 'link_campaign', 'import_campaigns',
  'list_pending_replies', 'get_reply', 'send_reply', 'approve_reply', 'reject_reply', 'skip_reply', 'get_weekly_reports',
];
// The lead pool (issue 14) and recipes, formulas, runs and signals (issue 15).
const ISSUE_14 = [
  'list_leads', 'update_leads', 'import_leads', 'list_imports', 'list_icps', 'save_segment', 'list_segments', 'segment_results',
  'list_suppressions', 'preview_suppressions_import', 'import_suppressions', 'estimate_find_emails', 'run_find_emails',
];
const ISSUE_15 = [
  'list_recipes', 'preview_recipe', 'get_recipe_schema', 'list_recipe_templates', 'create_recipe', 'update_recipe', 'copy_recipe',
  'save_recipe_as_template', 'find_formulas', 'run_formula', 'get_run', 'stop_run', 'add_column', 'request_publish_formula',
  'read_signals', 'estimate_signals', 'run_signals',
];
// Plans, agreements and the course (issue 16).
const ISSUE_16 = ['get_agreements', 'set_agreement', 'get_course', 'get_plan', 'list_plans', 'approve_plan', 'change_plan', 'dismiss_plan', 'pause_plan', 'undo_step', 'propose_action'];
// Sending infrastructure (issue 17).
const ISSUE_17 = [
  'get_infrastructure', 'domain_options', 'get_domain_rule', 'set_domain_rule', 'choose_domains', 'list_domain_workspaces', 'set_domain_workspace',
  'attach_mailboxes', 'get_mailbox_lifecycle', 'set_auto_protect', 'unpark_mailbox',
];
// The Studio engine (issue 18): sequences, batches, review, learning, Studio campaigns, the day's view. With these the
// table serves all 93 tools of the fixture.
const ISSUE_18 = [
  'get_sequence', 'update_sequence', 'preview_sequence', 'get_sequence_preview', 'allocate_batch', 'skip_batch', 'approve_batch', 'batch_status',
  'start_writing', 'review_batch', 'review_lead', 'review_approve', 'review_edit_mail', 'review_reject', 'learned_rules', 'activate_learned_rule',
  'start_campaign', 'campaign_results', 'campaign_analytics', 'client_today',
];
// agency-operator.md §3: the two-step tools.
const TWO_STEP = new Set([
  'update_playbook', 'import_campaigns', 'preview_recipe', 'create_recipe', 'update_recipe', 'add_column', 'request_publish_formula', 'run_formula',
  'run_signals', 'run_find_emails', 'set_domain_rule', 'choose_domains', 'unpark_mailbox', 'update_leads', 'import_leads', 'allocate_batch',
  'start_writing', 'review_approve', 'review_edit_mail', 'review_reject', 'approve_batch', 'skip_batch', 'approve_plan', 'change_plan', 'undo_step',
]);
// agency-tools-and-bridge.md §4: the tools before the "Recipes and formulas (Studio)" table need no Studio module.
const NOT_STUDIO = new Set(SPEC.slice(0, SPEC.findIndex((s) => s.name === 'list_recipes')).map((s) => s.name));

describe('the agency operation table', () => {
  it('the fixture holds the 93 tool names of the spec, once each', () => {
    expect(SPEC).toHaveLength(93);
    expect(byName.size).toBe(93);
  });

  it("serves every tool of this issue and only tools of the spec, each with the spec's method, path and scope", () => {
    const served = TOOLS.map((op) => op.name);
    for (const name of [...ISSUE_13, ...ISSUE_14, ...ISSUE_15, ...ISSUE_16, ...ISSUE_17]) expect(served, name).toContain(name);
    expect(new Set(served).size).toBe(served.length);
    for (const op of TOOLS) {
      const spec = byName.get(op.name);
      expect(spec, `${op.name} is not a tool of the spec`).toBeDefined();
      expect(op.method, op.name).toBe(spec!.method);
      expect(op.path, op.name).toBe(spec!.path);
      expect(op.scope, op.name).toBe(spec!.scope);
      expect(op.twoStep, `${op.name} two steps`).toBe(TWO_STEP.has(op.name));
      expect(op.studio, `${op.name} Studio module`).toBe(!NOT_STUDIO.has(op.name));
      expect(op.write, `${op.name} writes`).toBe(op.method !== 'GET');
      if (op.twoStep) expect(Object.keys(op.input.shape), op.name).toContain('confirm_token');
    }
  });

  it('serves exactly the 93 tools of the fixture, each with its method, path and scope (issue 18 completes the table)', () => {
    expect(new Set([...ISSUE_13, ...ISSUE_14, ...ISSUE_15, ...ISSUE_16, ...ISSUE_17, ...ISSUE_18])).toEqual(new Set(SPEC.map((s) => s.name)));
    const served = TOOLS.map((op) => ({ name: op.name, method: op.method, path: op.path, scope: op.scope }));
    const sortByName = (xs: Spec[]) => [...xs].sort((a, b) => a.name.localeCompare(b.name));
    const missing = SPEC.filter((s) => !TOOLS.some((op) => op.name === s.name)).map((s) => s.name);
    expect(missing, 'spec tools not served').toEqual([]);
    expect(sortByName(served)).toEqual(sortByName(SPEC.map(({ name, method, path, scope }) => ({ name, method, path, scope }))));
    expect(agencyToolServer.defs.size).toBe(93);
  });

  it('serves agency routes under /v1/agency and core-route tools with rest: core; REST-only entries are not tools', () => {
    for (const op of OPERATIONS) {
      if (op.rest === 'agency') expect(op.path, op.name).toMatch(/^\/v1\/agency\//);
      else expect(op.path, op.name).not.toMatch(/^\/v1\/agency\//);
    }
    const restOnly = OPERATIONS.filter((op) => op.restOnly).map((op) => op.name);
    for (const name of restOnly) expect(agencyToolServer.defs.has(name), name).toBe(false);
    expect(agencyToolServer.defs.size).toBe(TOOLS.length);
  });
});
