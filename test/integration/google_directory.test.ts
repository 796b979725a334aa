// The production mailbox provider (lib/ports/mailbox_provider/google.ts) against a local fake of Google's Admin SDK
// Directory API (test/infra/fake_google_directory.ts): the documented requests (Bearer token, customer domains,
// users.insert with a random password returned as the credential), 409 answered as the existing mailbox without a
// credential, and the mapping of domain not verified, no licenses, 429 (Retry-After), 5xx and timeouts, no token in
// any detail.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { ApiError } from '../../lib/errors';
import { createMailboxProvider } from '../../lib/ports/mailbox_provider';
import { createGoogleMailboxProvider, randomPassword } from '../../lib/ports/mailbox_provider/google';
import { startFakeGoogleDirectory, type FakeGoogleDirectory } from '../infra/fake_google_directory';

const TOKEN = 'ya29.test-token-41f2';
const CUSTOMER = 'C03abc123';
let fake: FakeGoogleDirectory;
beforeAll(async () => {
  fake = await startFakeGoogleDirectory({ token: TOKEN, customer: CUSTOMER });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const google = (o: { timeoutMs?: number; token?: string } = {}) =>
  createGoogleMailboxProvider({ token: o.token ?? TOKEN, customer: CUSTOMER, baseUrl: `${fake.url}/admin/directory/v1`, timeoutMs: o.timeoutMs });
const deps = { db: null as never };
const create = (address = 'anna@getacme.com', g = google()) => g.createMailbox(deps, { orgId: 'org', workspaceId: CUSTOMER, address, firstName: 'Anna', lastName: 'Berg' });

describe('Google Workspace as the mailbox provider', () => {
  it('lists the customer as the one workspace, named after its primary domain', async () => {
    fake.addDomain('acme.com');
    fake.addDomain('getacme.com');
    expect(await google().listWorkspaces(deps, 'org')).toEqual([{ id: CUSTOMER, name: 'acme.com (Google Workspace)', provider: 'google', seats_left: null }]);
    expect(fake.requests[0]).toMatchObject({ method: 'GET', path: `/admin/directory/v1/customer/${CUSTOMER}/domains` });
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('creates a user with POST /users and returns its random password as the credential', async () => {
    fake.addDomain('getacme.com');
    const r = await create('Anna@GetAcme.com');
    expect(r).toMatchObject({ ok: true, repeated: false });
    if (!r.ok) throw new Error('not created');
    const [insert] = fake.requests.filter((q) => q.method === 'POST');
    expect(insert.path).toBe('/admin/directory/v1/users');
    expect(insert.json).toMatchObject({ primaryEmail: 'anna@getacme.com', name: { givenName: 'Anna', familyName: 'Berg' } });
    expect(r.credential).toBe(insert.json.password);
    expect(r.provider_id).toBe(fake.userOf('anna@getacme.com')?.id);
    // Random, not derived: two passwords differ.
    expect(randomPassword()).not.toBe(randomPassword());
    expect(randomPassword()).toHaveLength(24);
  });

  it('the same address again (409) answers the existing user, repeated, without a credential', async () => {
    fake.addDomain('getacme.com');
    const first = await create();
    const again = await create();
    expect(again).toEqual({ ok: true, provider_id: first.ok ? first.provider_id : 'x', credential: null, repeated: true });
    expect(fake.requests.at(-1)).toMatchObject({ method: 'GET', path: '/admin/directory/v1/users/anna%40getacme.com' });
  });

  it('maps an unverified domain, no licenses left and an unknown workspace', async () => {
    fake.addDomain('getacme.com', false);
    expect(await create()).toMatchObject({ ok: false, reason: 'domain_not_verified' });
    fake.reset();
    fake.addDomain('getacme.com');
    fake.setLicensesLeft(0);
    expect(await create()).toMatchObject({ ok: false, reason: 'no_seats' });
    const other = await google().createMailbox(deps, { orgId: 'org', workspaceId: 'C-other', address: 'x@getacme.com', firstName: 'X', lastName: 'Y' });
    expect(other).toMatchObject({ ok: false, reason: 'error' });
  });

  it('429 is rate_limited with Retry-After; 5xx and timeouts are errors; no token in a detail; listing failures are provider errors', async () => {
    fake.addDomain('getacme.com');
    fake.setFailure({ status: 429, retryAfterSec: 30 }, 1);
    const limited = await create();
    expect(limited).toMatchObject({ ok: false, reason: 'rate_limited', retry_after_sec: 30 });
    fake.setFailure({ status: 500 });
    const failed = await create();
    expect(failed).toMatchObject({ ok: false, reason: 'error' });
    await expect(google().listWorkspaces(deps, 'org')).rejects.toSatisfy((e: unknown) => e instanceof ApiError && e.code === 'provider_error');
    fake.setFailure({ slowMs: 1_000 });
    const slow = await create('b@getacme.com', google({ timeoutMs: 100 }));
    expect(slow).toMatchObject({ ok: false, reason: 'error' });
    fake.setFailure(null);
    const refused = await create('c@getacme.com', google({ token: 'wrong-token-x' }));
    expect(refused).toMatchObject({ ok: false, reason: 'error' });
    for (const r of [limited, failed, slow, refused]) expect(r.ok ? '' : r.detail).not.toContain(TOKEN);
    expect(fake.userOf('anna@getacme.com')).toBeNull();
  });

  it('refuses to start with MAILBOX_PROVIDER=google without a token', () => {
    expect(() => createMailboxProvider(loadConfig({ MAILBOX_PROVIDER: 'google' }))).toThrow(/GOOGLE_WORKSPACE_TOKEN/);
    expect(createMailboxProvider(loadConfig({ MAILBOX_PROVIDER: 'google', GOOGLE_WORKSPACE_TOKEN: TOKEN })).kind).toBe('google');
  });
});
