// The sweep of dead sign-in state (lib/web/sweep.ts): links used or expired more than a day ago and sessions ended
// (signed out, idle, past their absolute end) more than a week ago are deleted in bounded batches; live ones and
// recently ended ones stay. Runs on a database of its own in the integration tier: the sweep is global, and on the
// shared database it would delete other files' rows under this file's advanced clock.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { jobHandlers } from '../../functions/jobs/handlers';
import { sha256Hex } from '../../lib/crypto/secrets';
import { runHandler } from '../../lib/queue/run';
import { SESSION_ABSOLUTE_MS } from '../../lib/web/sessions';
import { sweepWebSignIns, WEB_SWEEP_JOB } from '../../lib/web/sweep';
import { signInLinks, webSessions } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { crmTenant } from './crm_helpers';
import { csrfOf, invitePortalUser, page, signIn } from './portal_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv({}, { ownDatabase: true });
});
afterAll(() => env.close());
// The database is this file's own: each test starts from empty tables, so the counts are exactly its rows.
beforeEach(async () => {
  await env.services.db.delete(signInLinks);
  await env.services.db.delete(webSessions);
});

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

async function portalUserId() {
  const t = await crmTenant(env);
  return (await invitePortalUser(t)).user.id;
}

/** Inserts a row with times relative to the test clock's now (ms ago); returns its id. */
async function link(userId: string, ago: { created: number; used?: number }) {
  const now = env.clock.now().getTime();
  const [row] = await env.services.db
    .insert(signInLinks)
    .values({
      userId,
      tokenHash: await sha256Hex(`t${Math.random()}`),
      createdAt: new Date(now - ago.created),
      expiresAt: new Date(now - ago.created + 15 * MIN),
      usedAt: ago.used === undefined ? null : new Date(now - ago.used),
    })
    .returning({ id: signInLinks.id });
  return row.id;
}

async function session(userId: string, ago: { created: number; lastSeen: number; revoked?: number }) {
  const now = env.clock.now().getTime();
  const [row] = await env.services.db
    .insert(webSessions)
    .values({
      userId,
      idHash: await sha256Hex(`s${Math.random()}`),
      csrfToken: 'x'.repeat(32),
      createdAt: new Date(now - ago.created),
      lastSeenAt: new Date(now - ago.lastSeen),
      expiresAt: new Date(now - ago.created + SESSION_ABSOLUTE_MS),
      revokedAt: ago.revoked === undefined ? null : new Date(now - ago.revoked),
    })
    .returning({ id: webSessions.id });
  return row.id;
}

const linkIds = async () => new Set((await env.services.db.select({ id: signInLinks.id }).from(signInLinks)).map((r) => r.id));
const sessionIds = async () => new Set((await env.services.db.select({ id: webSessions.id }).from(webSessions)).map((r) => r.id));

describe('sweep of sign-in links and sessions', () => {
  it('deletes links used or expired more than a day ago; keeps live and recently dead ones', async () => {
    const user = await portalUserId();
    const keep = [
      await link(user, { created: 5 * MIN }), // live
      await link(user, { created: 23 * HOUR }), // expired 22 h 45 min ago
      await link(user, { created: 23 * HOUR, used: 23 * HOUR - MIN }), // used 23 h ago
    ];
    const gone = [
      await link(user, { created: 25 * HOUR }), // never used, expired 24 h 45 min ago
      // Used a day and 5 minutes ago, but its expiry (1 day - 9 min ago) is recent: the use alone counts.
      await link(user, { created: DAY + 6 * MIN, used: DAY + 5 * MIN }),
    ];
    expect(await sweepWebSignIns(env.services.db, env.clock.now())).toEqual({ links: 2, sessions: 0 });
    const left = await linkIds();
    for (const id of keep) expect(left.has(id)).toBe(true);
    for (const id of gone) expect(left.has(id)).toBe(false);
    expect(await sweepWebSignIns(env.services.db, env.clock.now())).toEqual({ links: 0, sessions: 0 });
  });

  it('deletes sessions ended more than a week ago, whichever way they ended; keeps live and recently ended ones', async () => {
    const user = await portalUserId();
    const keep = [
      await session(user, { created: HOUR, lastSeen: MIN }), // live
      await session(user, { created: 6 * DAY + HOUR, lastSeen: 6 * DAY, revoked: 6 * DAY }), // signed out 6 days ago
      await session(user, { created: 7 * DAY + HOUR, lastSeen: 7 * DAY }), // idle since 6 days 12 h
      await session(user, { created: 13 * DAY, lastSeen: 6 * DAY + HOUR }), // absolute end 6 days ago
    ];
    const gone = [
      await session(user, { created: 8 * DAY + HOUR, lastSeen: 8 * DAY, revoked: 8 * DAY }), // signed out 8 days ago
      await session(user, { created: 7 * DAY + 13 * HOUR, lastSeen: 7 * DAY + 12 * HOUR + MIN }), // idle end 7 days 1 min ago
      // Absolute end 7 days 1 h ago, seen an hour before it: only the absolute end makes it old enough.
      await session(user, { created: 14 * DAY + HOUR, lastSeen: 7 * DAY + 2 * HOUR }),
    ];
    expect(await sweepWebSignIns(env.services.db, env.clock.now())).toEqual({ links: 0, sessions: 3 });
    const left = await sessionIds();
    for (const id of keep) expect(left.has(id)).toBe(true);
    for (const id of gone) expect(left.has(id)).toBe(false);
  });

  it('works in bounded batches: a backlog beyond the cap is left for the next run', async () => {
    const user = await portalUserId();
    const live = [...(await linkIds())]; // the invitation's own link
    for (let i = 0; i < 5; i++) await link(user, { created: 2 * DAY });
    live.push(await link(user, { created: MIN }));
    expect(await sweepWebSignIns(env.services.db, env.clock.now(), { batch: 2, maxBatches: 2 })).toEqual({ links: 4, sessions: 0 });
    expect((await linkIds()).size).toBe(live.length + 1);
    expect(await sweepWebSignIns(env.services.db, env.clock.now(), { batch: 2, maxBatches: 2 })).toEqual({ links: 1, sessions: 0 });
    expect([...(await linkIds())].sort()).toEqual(live.sort());
  });

  it('the scheduled job sweeps on the service clock; a live session still opens pages afterwards', async () => {
    const t = await crmTenant(env);
    const signedOut = await signIn(env, (await invitePortalUser(t)).sign_in_url);
    const home = await page(env, '/portal/leads', { cookie: signedOut });
    expect((await page(env, '/portal/sign-out', { cookie: signedOut, form: { _csrf: csrfOf(home.html) } })).status).toBe(200);
    const unused = await invitePortalUser(t);

    env.clock.advance(7 * DAY + MIN);
    const fresh = await invitePortalUser(t);
    const live = await signIn(env, fresh.sign_in_url);
    const before = await env.services.db.select().from(webSessions);
    expect(before).toHaveLength(2);

    await runHandler(jobHandlers, WEB_SWEEP_JOB, {}, { services: env.services, attempt: 1 });

    // The signed-out session and both old links (one used, one expired) went; the new link and session stayed.
    const sessions = await env.services.db.select().from(webSessions);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].revokedAt).toBeNull();
    const links = await env.services.db.select({ tokenHash: signInLinks.tokenHash, usedAt: signInLinks.usedAt }).from(signInLinks);
    expect(links).toEqual([{ tokenHash: await sha256Hex(new URL(fresh.sign_in_url).pathname.split('/').pop()!), usedAt: expect.any(Date) }]);
    expect((await page(env, '/portal/leads', { cookie: live })).status).toBe(200);
    // A swept cookie and a swept link are still refused (now as unknown): deleting a row never revives it.
    expect((await page(env, '/portal/leads', { cookie: signedOut })).status).toBe(401);
    expect((await page(env, new URL(unused.sign_in_url).pathname)).status).toBe(400);
  });
});
