// Leads out to a client's table tool: the destination (SSRF rules, token encrypted), pushes of ≤ 10,000 leads, and
// the job (agency-operator.md §7): one POST per lead, at most 5 in flight, 429 honoured, three retries, never-mail
// checked right before each post, resumable after a crash, bounded work per run. Both tiers.
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, jobs, simTablePosts, suppressions, tableDestinations, tablePushes } from '../../schema';
import { createSecretBox } from '../../lib/crypto/secret_box';
import { MAX_POSTS_PER_RUN, runTablePush } from '../../lib/bridge/push_job';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { TEST_ENCRYPTION_KEY } from '../helpers/harness_constants';
import { studioTenant } from './helpers';
import { countingTool, itemsOf, ok, pendingJobs, pushRow, runPushToEnd, scriptedTool, seedLeads, setDestination, startPush, useTool } from './push_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({}, { ownDatabase: true }); // its queued pushes are its own: other files drain the shared jobs table
});
afterAll(() => env.close());

describe('the table destination', () => {
  it('stores the token encrypted, shows only has_token, replaces it whole on PUT, and audits as admin', async () => {
    const t = await studioTenant(env);
    const set = await t.admin('PUT', `/admin/v1/clients/${t.client.id}/table-destination`, { url: 'https://table.example.com/hook', token: 'tbl_secret_token_123' });
    expect(set.status).toBe(200);
    expect(set.json).toEqual({ destination: { url: 'https://table.example.com/hook', has_token: true } });
    const [row] = await env.services.db.select().from(tableDestinations).where(eq(tableDestinations.clientId, t.client.id));
    expect(row.tokenEnc).not.toContain('tbl_secret_token_123');
    expect(await createSecretBox(TEST_ENCRYPTION_KEY).decrypt(row.tokenEnc!)).toBe('tbl_secret_token_123');
    const replaced = await t.admin('PUT', `/admin/v1/clients/${t.client.id}/table-destination`, { url: 'https://other.example.com/in' });
    expect(replaced.json.destination).toEqual({ url: 'https://other.example.com/in', has_token: false });
    const [after] = await env.services.db.select().from(tableDestinations).where(eq(tableDestinations.clientId, t.client.id));
    expect(after.tokenEnc).toBeNull();
    const audit = await env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, t.org.id), eq(auditLog.action, 'table_destination.set')));
    expect(audit.map((a) => a.actor)).toEqual(['admin', 'admin']);
    expect(JSON.stringify(audit.map((a) => a.detail))).not.toContain('tbl_secret_token_123');

    for (const url of ['ftp://table.example.com/x', 'not a url', 'https://user:pw@table.example.com/x']) {
      const r = await t.admin('PUT', `/admin/v1/clients/${t.client.id}/table-destination`, { url });
      expect([r.status, r.json.error.code], url).toEqual([400, 'validation_error']);
    }
    const missing = await t.admin('PUT', `/admin/v1/clients/00000000-0000-4000-8000-000000000000/table-destination`, { url: 'https://table.example.com/hook' });
    expect(missing.status).toBe(404);
  });

  it('refuses private, loopback and plain-http URLs when the webhook rule does', async () => {
    const strict = await startTestEnv({ ALLOW_PRIVATE_WEBHOOK_URLS: 'false' });
    try {
      const t = await studioTenant(strict);
      for (const url of ['https://127.0.0.1/hook', 'https://10.0.0.8/hook', 'https://localhost/hook', 'http://93.184.216.34/hook', 'https://[::1]/hook', 'https://169.254.169.254/latest']) {
        const r = await t.admin('PUT', `/admin/v1/clients/${t.client.id}/table-destination`, { url });
        expect([r.status, r.json.error.code], url).toEqual([400, 'validation_error']);
      }
      const fine = await t.admin('PUT', `/admin/v1/clients/${t.client.id}/table-destination`, { url: 'https://93.184.216.34/hook' });
      expect(fine.status).toBe(200);
      expect(await strict.services.db.select().from(tableDestinations).where(eq(tableDestinations.clientId, t.client.id))).toHaveLength(1);
    } finally {
      await strict.close();
    }
  });
});

describe('creating a push', () => {
  it('needs a destination (409), refuses another client\'s lead (404) and more than 10,000 leads (400), writing nothing', async () => {
    const t = await studioTenant(env);
    const ids = await seedLeads(env, t, 3);
    const none = await t.admin('POST', `/admin/v1/clients/${t.client.id}/table-pushes`, {});
    expect([none.status, none.json.error.code]).toEqual([409, 'conflict']);
    await setDestination(t);
    const other = await t.addClient('Other');
    const [foreign] = await seedLeads(env, t, 1, other.id);
    const mixed = await t.admin('POST', `/admin/v1/clients/${t.client.id}/table-pushes`, { lead_ids: [ids[0], foreign] });
    expect([mixed.status, mixed.json.error.code]).toEqual([404, 'not_found']);
    const tooMany = await t.admin('POST', `/admin/v1/clients/${t.client.id}/table-pushes`, { lead_ids: Array.from({ length: 10_001 }, () => ids[0]) });
    expect([tooMany.status, tooMany.json.error.code]).toEqual([400, 'validation_error']);
    expect(await env.services.db.select().from(tablePushes).where(eq(tablePushes.clientId, t.client.id))).toHaveLength(0);
    const unknownPush = await t.admin('GET', `/admin/v1/table-pushes/00000000-0000-4000-8000-000000000000`);
    expect(unknownPush.status).toBe(404);
  });

  it('refuses a whole pool of more than 10,000 leads and takes exactly 10,000', async () => {
    const t = await studioTenant(env);
    await setDestination(t);
    const ids = await seedLeads(env, t, 10_000);
    const full = await t.admin('POST', `/admin/v1/clients/${t.client.id}/table-pushes`, {});
    expect(full.status, full.text).toBe(202);
    expect(full.json.push).toMatchObject({ rows: 10_000, sent: 0, status: 'queued', last_error: null });
    await seedLeads(env, t, 1);
    const over = await t.admin('POST', `/admin/v1/clients/${t.client.id}/table-pushes`, {});
    expect([over.status, over.json.error.code]).toEqual([400, 'validation_error']);
    expect(over.json.error.message).toMatch(/10001 leads; at most 10000/);
    expect(await env.services.db.select().from(tablePushes).where(eq(tablePushes.clientId, t.client.id))).toHaveLength(1);
    expect(ids).toHaveLength(10_000);
    // Not sent by this file: its 10,000 posts would run through the other tests' queue drains.
    await env.services.db.delete(tablePushes).where(eq(tablePushes.id, full.json.push.id));
    await env.services.db.delete(jobs).where(sql`${jobs.payload}->>'push_id' = ${full.json.push.id}`);
  }, 60_000);

  it('an empty pool is a push that is done at once', async () => {
    const t = await studioTenant(env);
    await setDestination(t);
    expect(await startPush(t)).toMatchObject({ rows: 0, status: 'done' });
  });
});

describe('the push job (simulated table tool)', () => {
  it('posts each lead once as one JSON object and ends done with its counts, readable by GET', async () => {
    const t = await studioTenant(env);
    const ids = await seedLeads(env, t, 12);
    await setDestination(t, 'https://table.example.com/hook', 'tok');
    const push = await startPush(t);
    expect(push).toMatchObject({ rows: 12, status: 'queued' });
    const audit = await env.services.db.select().from(auditLog).where(and(eq(auditLog.orgId, t.org.id), eq(auditLog.action, 'table_push.created')));
    expect(audit).toMatchObject([{ actor: 'admin', target: push.id }]);
    const done = await runPushToEnd(env, push.id, { viaQueue: true });
    expect(done).toMatchObject({ status: 'done', sent: 12, failed: 0, suppressed: 0, lastError: null });
    const posts = await env.services.db.select().from(simTablePosts).where(eq(simTablePosts.pushId, push.id));
    expect(posts.map((p) => p.leadId).sort()).toEqual(ids);
    const body = posts[0].body as Record<string, unknown>;
    expect(body).toMatchObject({ lead_id: posts[0].leadId, first_name: 'Pat', phone: expect.stringMatching(/^\+1 555/) });
    expect(body.provenance).toBeUndefined();
    const got = await t.admin('GET', `/admin/v1/table-pushes/${push.id}`);
    expect(got.json.push).toMatchObject({ id: push.id, rows: 12, sent: 12, status: 'done', last_error: null });
    const sims = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/sim/table_posts`);
    if (sims.status === 200) expect(sims.json.rows.length).toBe(12);
  });

  it('keeps at most 5 posts in flight', async () => {
    const t = await studioTenant(env);
    await seedLeads(env, t, 30);
    await setDestination(t);
    const s = scriptedTool(() => ok);
    const restore = useTool(env, s.tool);
    try {
      const push = await startPush(t);
      expect(await runPushToEnd(env, push.id)).toMatchObject({ status: 'done', sent: 30 });
    } finally {
      restore();
    }
    expect(s.stats.maxInFlight).toBe(5);
    expect([...s.postsPer().values()].every((n) => n === 1)).toBe(true);
  });

  it('honours a 429: waits for its Retry-After, retries the row, and does not count it as a failure', async () => {
    const t = await studioTenant(env);
    await seedLeads(env, t, 6);
    await setDestination(t, 'https://slow-table.example.com/hook');
    const c = countingTool(env.services.studio.tableTool);
    const restore = useTool(env, c.tool);
    try {
      const push = await startPush(t);
      await runTablePush(env.services, push.id);
      const waiting = await pushRow(env, push.id);
      expect(waiting).toMatchObject({ status: 'sending', sent: 0 });
      expect(await env.services.db.select().from(simTablePosts).where(eq(simTablePosts.pushId, push.id))).toHaveLength(0);
      const next = Math.max(...(await pendingJobs(env, push.id)).map((j) => j.runAt.getTime()));
      expect(next).toBeGreaterThan(env.clock.now().getTime());
      for (const item of await itemsOf(env, push.id)) expect(item).toMatchObject({ status: 'pending', attempts: 0 });
      // The sixth lead meets its own first 429 in a later run; the simulation's one-in-50 transient 503 may add a retry.
      expect(await runPushToEnd(env, push.id)).toMatchObject({ status: 'done', sent: 6, failed: 0 });
      expect(await env.services.db.select().from(simTablePosts).where(eq(simTablePosts.pushId, push.id))).toHaveLength(6);
      // Each lead was asked again after its 429, marked as a retry after a throttle; a 429 never counted as a failed try.
      const items = await itemsOf(env, push.id);
      for (const item of items) {
        const calls = c.calls.filter((call) => call.leadId === item.leadId);
        expect(calls[0]).toMatchObject({ attempt: 1, afterThrottle: false });
        expect(calls[1]).toMatchObject({ afterThrottle: true });
        expect(item.attempts).toBe(calls.length - 2);
      }
    } finally {
      restore();
    }
  });

  it('backs off 30 s after a 429 without Retry-After', async () => {
    const t = await studioTenant(env);
    await seedLeads(env, t, 2);
    await setDestination(t);
    const s = scriptedTool((_input, n) => (n <= 2 ? { ok: false, throttled: true, retryAfterSec: null, error: 'HTTP 429' } : ok));
    const restore = useTool(env, s.tool);
    try {
      const push = await startPush(t);
      const before = env.clock.now().getTime();
      await runTablePush(env.services, push.id);
      const next = Math.max(...(await pendingJobs(env, push.id)).map((j) => j.runAt.getTime()));
      expect(next - before).toBeGreaterThanOrEqual(30_000);
      env.clock.advance(31_000);
      await runTablePush(env.services, push.id);
      expect(await pushRow(env, push.id)).toMatchObject({ status: 'done', sent: 2 });
    } finally {
      restore();
    }
  });

  it('retries other failures three times, then records the lead failed and the error on the push', async () => {
    const t = await studioTenant(env);
    await seedLeads(env, t, 2);
    await setDestination(t, 'https://fail-table.example.com/hook');
    const c = countingTool(env.services.studio.tableTool);
    const restore = useTool(env, c.tool);
    try {
      const push = await startPush(t);
      const end = await runPushToEnd(env, push.id);
      expect(end).toMatchObject({ status: 'failed', sent: 0, failed: 2 });
      expect(end.lastError).toMatch(/HTTP 500 \(after 4 tries\)/);
      for (const item of await itemsOf(env, push.id)) expect(item).toMatchObject({ status: 'failed', attempts: 4, lastError: 'HTTP 500' });
      expect(c.calls).toHaveLength(8);
    } finally {
      restore();
    }
  });

  it('sends a lead that fails twice and then gets through', async () => {
    const t = await studioTenant(env);
    const [id] = await seedLeads(env, t, 1);
    await setDestination(t);
    const s = scriptedTool((_input, n) => (n <= 2 ? { ok: false, throttled: false, error: 'HTTP 502' } : ok));
    const restore = useTool(env, s.tool);
    try {
      const push = await startPush(t);
      expect(await runPushToEnd(env, push.id)).toMatchObject({ status: 'done', sent: 1, failed: 0 });
      expect((await itemsOf(env, push.id))[0]).toMatchObject({ leadId: id, status: 'sent', attempts: 2, lastError: null });
      expect(s.calls.map((c) => c.attempt)).toEqual([1, 2, 3]);
    } finally {
      restore();
    }
  });

  it('checks the never-mail list right before each post: a lead listed while the push runs is suppressed, never posted', async () => {
    const t = await studioTenant(env);
    const ids = await seedLeads(env, t, 7);
    await setDestination(t);
    const lead = (await env.services.db.query.poolLeads.findFirst({ where: (l, { eq: is }) => is(l.id, ids[6]) }))!;
    // While the first post is out, someone adds the last lead's company domain to the never-mail list. The other
    // posts in flight wait until it is listed: no slot frees (and no later lead is checked) before it, under any load.
    let listedNow!: () => void;
    const listed = new Promise<void>((resolve) => (listedNow = resolve));
    const s = scriptedTool(async (_input, n) => {
      if (n === 1) {
        await env.services.db.insert(suppressions).values({ orgId: t.org.id, clientId: t.client.id, kind: 'domain', value: lead.domain!, reason: 'manual', createdBy: 'test' });
        listedNow();
      } else await listed;
      return ok;
    });
    const restore = useTool(env, s.tool);
    try {
      const push = await startPush(t);
      expect(await runPushToEnd(env, push.id)).toMatchObject({ status: 'done', sent: 6, suppressed: 1, failed: 0 });
    } finally {
      restore();
    }
    expect(s.calls.map((c) => c.leadId)).not.toContain(ids[6]);
    const items = await itemsOf(env, s.calls[0].pushId);
    expect(items.find((i) => i.leadId === ids[6])).toMatchObject({ status: 'suppressed', lastError: `on the never-mail list (${lead.domain})` });
  });

  it('does at most 200 posts per run and schedules the next run', async () => {
    const t = await studioTenant(env);
    await seedLeads(env, t, 230);
    await setDestination(t);
    const s = scriptedTool(() => ok);
    const restore = useTool(env, s.tool);
    try {
      const push = await startPush(t);
      const first = await runTablePush(env.services, push.id);
      expect(first.posted).toBe(MAX_POSTS_PER_RUN);
      expect(first.next!.getTime()).toBeLessThanOrEqual(env.clock.now().getTime());
      expect(await pushRow(env, push.id)).toMatchObject({ status: 'sending', sent: 200 });
      expect((await pendingJobs(env, push.id)).length).toBeGreaterThanOrEqual(1);
      expect(await runPushToEnd(env, push.id)).toMatchObject({ status: 'done', sent: 230 });
    } finally {
      restore();
    }
    expect(s.calls).toHaveLength(230);
    expect(new Set(s.calls.map((c) => c.leadId)).size).toBe(230);
  });

  it('resumes after a crash: what was sent is never posted again, what was in flight is posted by the next run', async () => {
    const t = await studioTenant(env);
    const ids = await seedLeads(env, t, 8);
    await setDestination(t);
    const hung: Array<() => void> = [];
    // The crashed process: its first 3 posts got through, the rest never came back.
    const crashed = scriptedTool((_input, n) => (n <= 3 ? ok : new Promise((resolve) => hung.push(() => resolve(ok)))));
    const restore = useTool(env, crashed.tool);
    let abandoned: Promise<unknown> | undefined;
    try {
      const push = await startPush(t);
      // This test plays both runs itself: its queued job is taken away, so no job runner of another process on
      // the shared integration database (with its own clock and table tool) can run the push in between.
      await env.services.db.delete(jobs).where(sql`${jobs.kind} = 'table_push.run' and ${jobs.payload}->>'push_id' = ${push.id}`);
      abandoned = runTablePush(env.services, push.id);
      while (crashed.calls.length < 8) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(await pushRow(env, push.id)).toMatchObject({ status: 'sending' });
      const sentBefore = (await itemsOf(env, push.id)).filter((i) => i.status === 'sent').map((i) => i.leadId);
      expect(sentBefore).toHaveLength(3);

      // The restart: the crashed run's leases and its run lock have run out.
      env.clock.advance(16 * 60_000);
      await env.services.limits.releaseCooldown(`table_push_run:${push.id}`);
      const restarted = scriptedTool(() => ok);
      env.services.studio.tableTool = restarted.tool;
      expect(await runPushToEnd(env, push.id)).toMatchObject({ status: 'done', sent: 8 });
      const postedAgain = restarted.calls.map((c) => c.leadId).sort();
      expect(postedAgain).toEqual(ids.filter((id) => !sentBefore.includes(id)));
      expect(postedAgain).toHaveLength(5);
    } finally {
      for (const release of hung) release();
      await abandoned;
      restore();
    }
  });
});
