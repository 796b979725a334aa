// The plan tools on both faces (REST and MCP) and every row of the spec's Plans table, on days of the test clock:
// propose into the one open plan, approve (two steps, its scope, no token after a failed dry run, a cost a person
// confirms), free_steps, pause and resume, change (old tokens stale), dismiss and return, undo, the log and audit
// actors, and tenant isolation.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { returnDismissedPlans } from '../../lib/plans/dismiss';
import { clients, plans } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { advanceTo, auditOfOrg, drain, planLogOf, planRows, planTenant, registerPlanTestKinds, runsOf, stepRows } from '../plans/plans_helpers';

let env: TestEnv;
beforeAll(async () => {
  registerPlanTestKinds();
  env = await startTestEnv();
});
afterAll(() => env.close());

const DAY = 86_400_000;
const note = (text = 'Call the client about the new list') => ({ text });

describe('propose_action', () => {
  it("creates the client's one open plan and adds later steps to it, on both faces, with a fresh dry run", async () => {
    const a = await planTenant(env);
    const first = await a.propose('note', note(), { note: 'they asked for it', title: 'Catch up' });
    expect(first.created).toBe(true);
    expect(first.plan).toMatchObject({ client_id: a.t.client.id, title: 'Catch up', status: 'waiting_approval', revision: 1, approval_scope: null, dry_run: { ok: true, problems: [] } });
    expect(first.step).toMatchObject({ position: 1, kind: 'note', day: 0, status: 'waiting', buys: false, undoable: true, credits: 0, summary: 'Reminder: Call the client about the new list' });
    const second = await a.tool('propose_action', { client_id: a.t.client.id, kind: 'set_auto_write', params: { auto_write: true }, day: 2 });
    expect(second.isError, second.text).toBe(false);
    expect(second.json.created).toBe(false);
    expect(second.json.plan.id).toBe(first.plan.id);
    expect(second.json.plan.revision).toBe(2);
    expect(second.json.plan.steps.map((s: any) => [s.position, s.kind, s.day])).toEqual([
      [1, 'note', 0],
      [2, 'set_auto_write', 2],
    ]);
    expect(await planRows(env, a.t.client.id)).toHaveLength(1);
    const log = await planLogOf(env, first.plan.id);
    expect(log.map((l) => [l.actor, l.action])).toEqual([
      ['key:assistant', 'created'],
      ['key:assistant', 'step_added'],
      ['mcp:assistant', 'step_added'],
    ]);
    expect(log[1].detail).toMatchObject({ note: 'they asked for it', kind: 'note' });
    const audit = (await auditOfOrg(env, a.t.org.id)).filter((e) => e.action.startsWith('plan.'));
    expect(audit.map((e) => [e.actor, e.action])).toEqual([
      ['key:assistant', 'plan.created'],
      ['key:assistant', 'plan.step_added'],
      ['mcp:assistant', 'plan.step_added'],
    ]);
  });

  it('refuses an unknown kind (naming the kinds) and bad params (naming the field) with 400, writing nothing', async () => {
    const a = await planTenant(env);
    const unknown = await a.rest('POST', `${a.base}/plan/steps`, { kind: 'buy_spaceship', params: {} });
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.code).toBe('validation_error');
    expect(unknown.json.error.message).toContain('kind');
    expect(unknown.json.error.message).toContain('set_auto_write');
    const bad = await a.rest('POST', `${a.base}/plan/steps`, { kind: 'set_auto_write', params: { auto_write: 'yes' } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toContain('params.auto_write');
    const extra = await a.tool('propose_action', { client_id: a.t.client.id, kind: 'note', params: { text: 'x', when: 'now' } });
    expect(extra.isError).toBe(true);
    expect(extra.text.startsWith('validation_error')).toBe(true);
    expect(extra.text).toContain('when');
    const day = await a.rest('POST', `${a.base}/plan/steps`, { kind: 'note', params: note(), day: -1 });
    expect(day.status).toBe(400);
    expect(await planRows(env, a.t.client.id)).toHaveLength(0);
  });

  it('stores dry-run problems as sentences', async () => {
    const a = await planTenant(env);
    const r = await a.propose('recipe_go_live', { recipe_id: '00000000-0000-4000-8000-000000000001' });
    expect(r.plan.dry_run.ok).toBe(false);
    expect(r.plan.dry_run.problems).toEqual(['Step 1 (recipe_go_live): Recipe 00000000-0000-4000-8000-000000000001 is not a recipe of this client.']);
  });
});

describe('approve_plan', () => {
  it('needs agency.plans.approve: without it 403 insufficient_scope on both faces', async () => {
    const a = await planTenant(env, { approve: false });
    const { plan } = await a.propose('note', note());
    const r = await a.rest('POST', `/v1/agency/plans/${plan.id}/approve`, {});
    expect(r.status).toBe(403);
    expect(r.json.error.code).toBe('insufficient_scope');
    const t = await a.tool('approve_plan', { plan_id: plan.id });
    expect(t.text.startsWith('insufficient_scope')).toBe(true);
  });

  it('previews steps, days, purchases and credits, then approves: each step runs on its day at 08:00', async () => {
    const a = await planTenant(env);
    await a.propose('note', note('day zero'));
    const { plan } = await a.propose('set_auto_write', { auto_write: true }, { day: 2 });
    const preview = await a.tool('approve_plan', { plan_id: plan.id });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.json).toMatchObject({ confirm_token: expect.any(String), credits: 0, preview: { scope: 'all', credits_total: 0, buys: 0, dry_run: { ok: true } } });
    expect(preview.json.preview.steps.map((s: any) => [s.kind, s.day, s.approved])).toEqual([
      ['note', 0, true],
      ['set_auto_write', 2, true],
    ]);
    const nothing = await a.getPlan(plan.id);
    expect(nothing.status).toBe('waiting_approval');
    const done = await a.tool('approve_plan', { plan_id: plan.id, confirm_token: preview.json.confirm_token });
    expect(done.isError, done.text).toBe(false);
    const approved = done.json.plan;
    expect(approved).toMatchObject({ status: 'approved', approval_scope: 'all', approved_by: 'mcp:assistant' });
    expect(approved.steps.map((s: any) => s.status)).toEqual(['scheduled', 'scheduled']);
    const approvedAt = new Date(approved.approved_at);
    const due2 = new Date(approved.steps[1].due_at);
    // Day 2 at 08:00 UTC (the organization's zone) counted from the approval's calendar day.
    const expected = new Date(Date.UTC(approvedAt.getUTCFullYear(), approvedAt.getUTCMonth(), approvedAt.getUTCDate() + 2, 8));
    expect(due2.toISOString()).toBe(expected.toISOString());

    await drain(env);
    let now = await a.getPlan(plan.id);
    expect(now.steps.map((s: any) => s.status)).toEqual([new Date(now.steps[0].due_at) <= env.clock.now() ? 'done' : 'scheduled', 'scheduled']);
    // A minute before (the test clock runs on with the wall clock between the move and the drain).
    await advanceTo(env, new Date(due2.getTime() - 60_000));
    expect((await a.getPlan(plan.id)).steps[1].status).toBe('scheduled');
    const [client] = await env.services.db.select().from(clients).where(eq(clients.id, a.t.client.id));
    expect(client.autoWrite).toBe(false);
    await advanceTo(env, due2);
    now = await a.getPlan(plan.id);
    expect(now.status).toBe('done');
    expect(now.steps.map((s: any) => s.status)).toEqual(['done', 'done']);
    expect(now.steps[1].result).toEqual({ auto_write: true, previous: false });
    const [after] = await env.services.db.select().from(clients).where(eq(clients.id, a.t.client.id));
    expect(after.autoWrite).toBe(true);
    const audit = (await auditOfOrg(env, a.t.org.id)).filter((e) => e.action === 'plan.approved');
    expect(audit.map((e) => e.actor)).toEqual(['mcp:assistant']);
  });

  it('gives no token after a failed dry run (blocked_by dry_run_failed), and a confirm cannot get around it', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('test.check', { problem: 'The sending tool is not connected.' });
    const r = await a.rest('POST', `/v1/agency/plans/${plan.id}/approve`, {});
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ confirm_token: null, blocked_by: 'dry_run_failed', preview: { dry_run: { ok: false, problems: ['Step 1 (test.check): The sending tool is not connected.'] } } });
    const t = await a.tool('approve_plan', { plan_id: plan.id });
    expect(t.json.blocked_by).toBe('dry_run_failed');
    const admin = await a.admin('POST', `/admin/v1/plans/${plan.id}/approve`, { approver: 'Maria' });
    expect(admin.status).toBe(409);
    expect(admin.json.error.code).toBe('dry_run_failed');
    expect((await a.getPlan(plan.id)).status).toBe('waiting_approval');
  });

  it('a cost that needs a person: the key gets blocked_by person_confirmation_required, a person approves in the app', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('test.costly', { credits: 600 });
    const r = await a.rest('POST', `/v1/agency/plans/${plan.id}/approve`, {});
    expect(r.json).toMatchObject({ confirm_token: null, blocked_by: 'person_confirmation_required', preview: { credits_total: 600 } });
    expect(r.json.preview.needs_person).toContain('600');
    const admin = await a.admin('POST', `/admin/v1/plans/${plan.id}/approve`, { approver: 'Maria Owner' });
    expect(admin.status, admin.text).toBe(200);
    expect(admin.json.plan).toMatchObject({ status: 'approved', approved_by: 'Maria Owner', approval_scope: 'all' });
    const log = await planLogOf(env, plan.id);
    expect(log.at(-1)).toMatchObject({ actor: 'admin', action: 'approved', detail: expect.objectContaining({ approver: 'Maria Owner', person_confirmed: expect.any(String) }) });
    const audit = (await auditOfOrg(env, a.t.org.id)).filter((e) => e.action === 'plan.approved');
    expect(audit.map((e) => [e.actor, (e.detail as any).approver])).toEqual([['admin', 'Maria Owner']]);
    // Approved once: again is a conflict (nothing waits for approval).
    const again = await a.admin('POST', `/admin/v1/plans/${plan.id}/approve`, { approver: 'Maria Owner' });
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
  });

  it('scope free_steps approves only what buys nothing and can be undone; purchases wait and keep their day', async () => {
    const a = await planTenant(env);
    await a.propose('test.buy', { what: 'two domains' }, { day: 1 });
    await a.propose('find_emails', { max_leads: 10 });
    const { plan } = await a.propose('note', note(), { day: 1 });
    const { preview, done } = await a.confirm(`/v1/agency/plans/${plan.id}/approve`, { scope: 'free_steps' });
    expect(preview.preview.steps.map((s: any) => [s.kind, s.approved, s.keeps_waiting])).toEqual([
      ['test.buy', false, 'buys: approve it with scope all'],
      ['find_emails', false, 'cannot be undone: approve it with scope all'],
      ['note', true, null],
    ]);
    expect(done.status, done.text).toBe(200);
    expect(done.json.plan).toMatchObject({ status: 'approved', approval_scope: 'free_steps' });
    expect(done.json.plan.steps.map((s: any) => s.status)).toEqual(['waiting', 'waiting', 'scheduled']);
    const buyStep = done.json.plan.steps[0];
    await advanceTo(env, done.json.plan.steps[2].due_at);
    let now = await a.getPlan(plan.id);
    expect(now.steps.map((s: any) => s.status)).toEqual(['waiting', 'waiting', 'done']);
    expect(now.status).toBe('approved'); // purchases still wait: the plan is not done
    expect(runsOf(buyStep.id)).toBe(0);
    // Approving the rest later: the purchase keeps its day counted from the first approval (now past: at once).
    const rest = await a.confirm(`/v1/agency/plans/${plan.id}/approve`, { scope: 'all' });
    expect(rest.done.status, rest.done.text).toBe(200);
    expect(rest.done.json.plan.approved_at).toBe(done.json.plan.approved_at);
    await drain(env);
    now = await a.getPlan(plan.id);
    expect(now.steps.map((s: any) => s.status)).toEqual(['done', 'done', 'done']);
    expect(now.status).toBe('done');
    expect(runsOf(buyStep.id)).toBe(1);
  });

  it('with nothing free to approve, scope free_steps gives no token (conflict)', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('test.buy', { what: 'a mailbox' });
    const r = await a.rest('POST', `/v1/agency/plans/${plan.id}/approve`, { scope: 'free_steps' });
    expect(r.json).toMatchObject({ confirm_token: null, blocked_by: 'conflict' });
  });
});

describe('pause_plan', () => {
  it('stops an approved plan before its next step; resume: true releases it (a passed day runs at once)', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('note', note(), { day: 1 });
    const { done } = await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    const due = done.json.plan.steps[0].due_at;
    const paused = await a.tool('pause_plan', { plan_id: plan.id });
    expect(paused.isError, paused.text).toBe(false);
    expect(paused.json.plan.status).toBe('paused');
    expect(paused.json.plan.steps[0]).toMatchObject({ status: 'approved', due_at: null });
    await advanceTo(env, new Date(new Date(due).getTime() + DAY));
    expect((await a.getPlan(plan.id)).steps[0].status).toBe('approved');
    expect(runsOf(plan.steps[0].id)).toBe(0);
    const again = await a.rest('POST', `/v1/agency/plans/${plan.id}/pause`, {});
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    expect(again.json.plan.status).toBe('paused');
    const resumed = await a.rest('POST', `/v1/agency/plans/${plan.id}/pause`, { resume: true });
    expect(resumed.status, resumed.text).toBe(200);
    expect(resumed.json.plan.status).toBe('approved');
    expect(resumed.json.plan.steps[0].status).toBe('scheduled');
    // Its day passed while paused: due at once (the resume's moment), not a day later.
    expect(new Date(resumed.json.plan.steps[0].due_at).getTime()).toBeLessThanOrEqual(env.clock.now().getTime());
    expect(new Date(resumed.json.plan.steps[0].due_at).getTime()).toBeGreaterThan(new Date(due).getTime() + DAY - 1);
    await drain(env);
    const after = await a.getPlan(plan.id);
    expect(after.status).toBe('done');
    expect(after.log.map((l: any) => [l.actor, l.action])).toEqual(
      expect.arrayContaining([['mcp:assistant', 'paused'], ['key:assistant', 'resumed']]),
    );
  });

  it('a plan waiting for approval cannot be paused (conflict)', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('note', note());
    const r = await a.rest('POST', `/v1/agency/plans/${plan.id}/pause`, {});
    expect(r.status).toBe(409);
    expect((await a.rest('POST', `/v1/agency/plans/${plan.id}/pause`, { resume: true })).status).toBe(409);
  });
});

describe('change_plan', () => {
  it('two steps: the approved plan waits for approval again, its steps come off the schedule, old tokens are stale', async () => {
    const a = await planTenant(env);
    await a.propose('note', note('first'), { day: 3 });
    const { plan } = await a.propose('note', note('second'), { day: 4 });
    const { done } = await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    expect(done.json.plan.status).toBe('approved');
    const [first, second] = done.json.plan.steps;
    const changes = [
      { op: 'remove', step_id: first.id },
      { op: 'update', step_id: second.id, day: 1, params: note('second, sooner') },
      { op: 'add', kind: 'set_auto_write', params: { auto_write: true }, day: 2 },
    ];
    const preview = await a.tool('change_plan', { plan_id: plan.id, step_changes: changes });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.json.preview).toMatchObject({ unscheduled: 2, waits_for_approval: true });
    expect(preview.json.preview.steps_after.map((s: any) => [s.kind, s.day])).toEqual([
      ['note', 1],
      ['set_auto_write', 2],
    ]);
    expect((await a.getPlan(plan.id)).status).toBe('approved'); // the preview changed nothing
    // An approve token issued before the change.
    const oldApprove = await a.tool('approve_plan', { plan_id: plan.id, scope: 'all' });
    expect(oldApprove.json.blocked_by).toBe('conflict'); // approved already: nothing to approve
    const changed = await a.tool('change_plan', { plan_id: plan.id, step_changes: changes, confirm_token: preview.json.confirm_token });
    expect(changed.isError, changed.text).toBe(false);
    expect(changed.json.plan).toMatchObject({ status: 'waiting_approval', revision: plan.revision + 1, approved_at: null, dry_run: { ok: true } });
    expect(changed.json.plan.steps.map((s: any) => [s.kind, s.day, s.status, s.due_at])).toEqual([
      ['note', 1, 'waiting', null],
      ['set_auto_write', 2, 'waiting', null],
    ]);
    const approveToken = (await a.tool('approve_plan', { plan_id: plan.id })).json.confirm_token;
    // Another change makes that token stale.
    await a.confirm(`/v1/agency/plans/${plan.id}/change`, { step_changes: [{ op: 'add', kind: 'note', params: note('third') }] });
    const stale = await a.tool('approve_plan', { plan_id: plan.id, confirm_token: approveToken });
    expect(stale.isError).toBe(true);
    expect(stale.text.startsWith('preview_stale')).toBe(true);
    const audit = (await auditOfOrg(env, a.t.org.id)).filter((e) => e.action === 'plan.changed');
    expect(audit.map((e) => e.actor)).toEqual(['mcp:assistant', 'key:assistant']);
    // Nothing ran: the unscheduled jobs find nothing to do.
    await advanceTo(env, new Date(env.clock.now().getTime() + 5 * DAY));
    expect((await stepRows(env, plan.id)).map((s) => s.status)).toEqual(['waiting', 'waiting', 'waiting']);
  });

  it('adding a step with propose_action to an approved plan also sends it back for approval', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('note', note(), { day: 2 });
    await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    const r = await a.propose('note', note('one more'), { day: 3 });
    expect(r.plan).toMatchObject({ id: plan.id, status: 'waiting_approval', approved_at: null });
    expect(r.plan.steps.map((s: any) => s.status)).toEqual(['waiting', 'waiting']);
  });

  it('refuses bad changes naming them, and changes to steps that ran (conflict)', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('note', note());
    const path = `/v1/agency/plans/${plan.id}/change`;
    const cases: [unknown, number, string][] = [
      [[{ op: 'add', params: {} }], 400, 'step_changes.0.kind'],
      [[{ op: 'add', kind: 'set_auto_write', params: { auto_write: 1 } }], 400, 'step_changes.0.params.auto_write'],
      [[{ op: 'remove' }], 400, 'step_changes.0.step_id'],
      [[{ op: 'remove', step_id: '00000000-0000-4000-8000-000000000009' }], 404, 'step_changes.0.step_id'],
      [[{ op: 'rename', step_id: plan.steps[0].id }], 400, 'op'],
      [[], 400, 'step_changes'],
    ];
    for (const [step_changes, status, names] of cases) {
      const r = await a.rest('POST', path, { step_changes });
      expect(r.status, JSON.stringify(step_changes)).toBe(status);
      expect(JSON.stringify(r.json.error), JSON.stringify(step_changes)).toContain(names);
    }
    const { done } = await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    await drain(env);
    expect((await a.getPlan(plan.id)).status).toBe('done');
    const late = await a.rest('POST', path, { step_changes: [{ op: 'remove', step_id: done.json.plan.steps[0].id }] });
    expect(late.status).toBe(409);
    expect(late.json.error.code).toBe('conflict');
  });
});

describe('dismiss_plan', () => {
  it('dismisses for 1 to 30 days; the plan then returns waiting for approval with a fresh dry run', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('note', note(), { day: 1 });
    await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    for (const days of [0, 31, 1.5]) {
      const r = await a.rest('POST', `/v1/agency/plans/${plan.id}/dismiss`, { days });
      expect(r.status, String(days)).toBe(400);
      expect(r.json.error.message).toContain('days');
    }
    const asked = env.clock.now().getTime();
    const r = await a.tool('dismiss_plan', { plan_id: plan.id, days: 3 });
    expect(r.isError, r.text).toBe(false);
    expect(r.json.plan.status).toBe('dismissed');
    const until = new Date(r.json.plan.dismissed_until);
    expect(until.getTime() - asked).toBeGreaterThanOrEqual(3 * DAY);
    expect(until.getTime() - asked).toBeLessThan(3 * DAY + 60_000);
    expect(r.json.plan.steps[0]).toMatchObject({ status: 'waiting', due_at: null });
    const before = r.json.plan.dry_run.at;
    // Nothing runs while dismissed; the tick two days on leaves it.
    await advanceTo(env, new Date(until.getTime() - DAY));
    expect(await returnDismissedPlans(env.services, env.clock.now())).toBe(0);
    expect(runsOf(plan.steps[0].id)).toBe(0);
    expect((await a.getPlan(plan.id)).steps[0].status).toBe('waiting');
    await advanceTo(env, until);
    expect(await returnDismissedPlans(env.services, env.clock.now())).toBeGreaterThanOrEqual(1);
    const back = await a.getPlan(plan.id);
    expect(back).toMatchObject({ status: 'waiting_approval', dismissed_until: null, dry_run: { ok: true } });
    expect(back.dry_run.at).not.toBe(before);
    expect(back.log[0]).toMatchObject({ actor: 'system', action: 'returned' });
    expect(back.log.find((l: any) => l.action === 'dismissed')).toMatchObject({ actor: 'mcp:assistant', detail: { days: 3 } });
  });

  it('a done plan cannot be dismissed (conflict)', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('note', note());
    await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    await drain(env);
    const r = await a.rest('POST', `/v1/agency/plans/${plan.id}/dismiss`, { days: 2 });
    expect(r.status).toBe(409);
  });
});

describe('undo_step', () => {
  it('two steps: undoes a step that ran (auto_write back to what it was); a second undo is a conflict', async () => {
    const a = await planTenant(env);
    const { plan } = await a.propose('set_auto_write', { auto_write: true });
    await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    await drain(env);
    const ran = await a.getPlan(plan.id);
    expect(ran.steps[0].status).toBe('done');
    const step = ran.steps[0];
    const path = `/v1/agency/plans/${plan.id}/steps/${step.id}/undo`;
    const preview = await a.tool('undo_step', { plan_id: plan.id, step_id: step.id });
    expect(preview.isError, preview.text).toBe(false);
    expect(preview.json.preview).toMatchObject({ step: { id: step.id, status: 'done' }, undoes: 'Undo: Switch auto-write on' });
    let [client] = await env.services.db.select().from(clients).where(eq(clients.id, a.t.client.id));
    expect(client.autoWrite).toBe(true);
    const done = await a.tool('undo_step', { plan_id: plan.id, step_id: step.id, confirm_token: preview.json.confirm_token });
    expect(done.isError, done.text).toBe(false);
    expect(done.json.step).toMatchObject({ status: 'undone', undone_at: expect.any(String) });
    [client] = await env.services.db.select().from(clients).where(eq(clients.id, a.t.client.id));
    expect(client.autoWrite).toBe(false);
    const again = await a.rest('POST', path, {});
    expect(again.status).toBe(409);
    expect(again.json.error.code).toBe('conflict');
    const audit = (await auditOfOrg(env, a.t.org.id)).filter((e) => e.action === 'plan.step_undone');
    expect(audit.map((e) => e.actor)).toEqual(['mcp:assistant']);
  });

  it('a purchase or a step that cannot be undone answers 409 not_undoable; a step that has not run, conflict', async () => {
    const a = await planTenant(env);
    await a.propose('test.buy', { what: 'a domain' });
    const { plan } = await a.propose('note', note(), { day: 5 });
    await a.confirm(`/v1/agency/plans/${plan.id}/approve`);
    await drain(env);
    const [buy, later] = (await a.getPlan(plan.id)).steps;
    expect(buy.status).toBe('done');
    const r = await a.rest('POST', `/v1/agency/plans/${plan.id}/steps/${buy.id}/undo`, {});
    expect(r.status).toBe(409);
    expect(r.json.error.code).toBe('not_undoable');
    const t = await a.tool('undo_step', { plan_id: plan.id, step_id: buy.id });
    expect(t.text.startsWith('not_undoable')).toBe(true);
    const notRun = await a.rest('POST', `/v1/agency/plans/${plan.id}/steps/${later.id}/undo`, {});
    expect(notRun.status).toBe(409);
    expect(notRun.json.error.code).toBe('conflict');
    const b = await planTenant(env);
    const { plan: p2 } = await b.propose('find_emails', { max_leads: 5 });
    const fe = await b.rest('POST', `/v1/agency/plans/${p2.id}/steps/${p2.steps[0].id}/undo`, {});
    expect(fe.json.error.code).toBe('not_undoable');
  });
});

describe('get_plan and list_plans', () => {
  it('answer the same on both faces, newest first, narrowed by client and status, paged', async () => {
    const a = await planTenant(env);
    const other = await a.t.addClient('Client B');
    const p1 = (await a.propose('note', note())).plan;
    const p2 = (await a.rest('POST', `/v1/agency/clients/${other.id}/plan/steps`, { kind: 'note', params: note() })).json.plan;
    const viaRest = await a.rest('GET', `/v1/agency/plans/${p1.id}`);
    const viaTool = await a.tool('get_plan', { plan_id: p1.id });
    expect(viaTool.json).toEqual(viaRest.json);
    expect(viaRest.json.plan.log.length).toBeGreaterThan(0);
    const all = await a.rest('GET', '/v1/agency/plans');
    expect(all.json.plans.map((p: any) => p.id)).toEqual([p2.id, p1.id]);
    expect(all.json.plans[0]).toMatchObject({ steps: 1, steps_done: 0 });
    expect((await a.tool('list_plans', {})).json).toEqual(all.json);
    expect((await a.rest('GET', `/v1/agency/plans?client_id=${other.id}`)).json.plans.map((p: any) => p.id)).toEqual([p2.id]);
    expect((await a.rest('GET', '/v1/agency/plans?status=done')).json.plans).toEqual([]);
    const page = await a.rest('GET', '/v1/agency/plans?limit=1');
    expect(page.json).toMatchObject({ plans: [{ id: p2.id }], next_offset: 1 });
    expect((await a.rest('GET', '/v1/agency/plans?limit=1&offset=1')).json).toMatchObject({ plans: [{ id: p1.id }], next_offset: null });
    expect((await a.rest('GET', '/v1/agency/plans?status=finished')).status).toBe(400);
  });
});

describe('tenant isolation', () => {
  it("another organization's plan, step and client are not_found on every plan tool, and nothing changes", async () => {
    const a = await planTenant(env);
    const b = await planTenant(env);
    const { plan } = await b.propose('set_auto_write', { auto_write: true });
    const step = plan.steps[0].id;
    const calls: [string, string, Record<string, unknown>][] = [
      ['GET', `/v1/agency/plans/${plan.id}`, {}],
      ['POST', `/v1/agency/plans/${plan.id}/approve`, {}],
      ['POST', `/v1/agency/plans/${plan.id}/change`, { step_changes: [{ op: 'remove', step_id: step }] }],
      ['POST', `/v1/agency/plans/${plan.id}/dismiss`, { days: 2 }],
      ['POST', `/v1/agency/plans/${plan.id}/pause`, {}],
      ['POST', `/v1/agency/plans/${plan.id}/steps/${step}/undo`, {}],
      ['POST', `/v1/agency/clients/${b.t.client.id}/plan/steps`, { kind: 'note', params: note() }],
      ['GET', `/v1/agency/plans?client_id=${b.t.client.id}`, {}],
    ];
    for (const [method, path, body] of calls) {
      const r = await a.rest(method, path, method === 'GET' ? undefined : body);
      expect(r.status, `${method} ${path}`).toBe(404);
      expect(r.json.error.code).toBe('not_found');
    }
    for (const [name, args] of [
      ['get_plan', { plan_id: plan.id }],
      ['approve_plan', { plan_id: plan.id }],
      ['dismiss_plan', { plan_id: plan.id, days: 2 }],
      ['undo_step', { plan_id: plan.id, step_id: step }],
      ['propose_action', { client_id: b.t.client.id, kind: 'note', params: note() }],
    ] as const) {
      const t = await a.tool(name, args);
      expect(t.text.startsWith('not_found'), name).toBe(true);
    }
    expect((await a.rest('GET', '/v1/agency/plans')).json.plans).toEqual([]);
    const [row] = await env.services.db.select().from(plans).where(eq(plans.id, plan.id));
    expect(row).toMatchObject({ status: 'waiting_approval', revision: 1 });
    // A step id of another plan of one's own organization is not_found too.
    const { plan: mine } = await a.propose('note', note());
    expect((await a.rest('POST', `/v1/agency/plans/${mine.id}/steps/${step}/undo`, {})).status).toBe(404);
    expect((await a.admin('POST', '/admin/v1/plans/00000000-0000-4000-8000-000000000000/approve', { approver: 'x' })).status).toBe(404);
  });
});
