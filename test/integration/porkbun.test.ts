// The production registrar (lib/ports/registrar/porkbun.ts) against a local fake of Porkbun's API v3
// (test/infra/fake_porkbun.ts): the documented requests (POST, keys in the body, cost in cents, agreeToTerms), the
// mapping of every answer (available with its price, not available, price above the maximum, 429 with Retry-After,
// 5xx, timeout), no second purchase when the account already holds the domain, and no key in any detail.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../lib/config';
import { createRegistrar } from '../../lib/ports/registrar';
import { createPorkbunRegistrar, priceCents } from '../../lib/ports/registrar/porkbun';
import { startFakePorkbun, type FakePorkbun } from '../infra/fake_porkbun';

const KEY = 'pk1_test_5c0ffee';
const SECRET = 'sk1_test_b16b00b5';
let fake: FakePorkbun;
beforeAll(async () => {
  fake = await startFakePorkbun({ apiKey: KEY, secretApiKey: SECRET });
});
afterAll(() => fake.close());
beforeEach(() => fake.reset());

const registrar = (o: { timeoutMs?: number; secret?: string } = {}) =>
  createPorkbunRegistrar({ apiKey: KEY, secretApiKey: o.secret ?? SECRET, baseUrl: `${fake.url}/api/json/v3`, timeoutMs: o.timeoutMs });
// The adapter never touches the database.
const deps = { db: null as never };
const buy = (domain: string, maxPriceCents = 2_000, reference = 'step-1') => registrar().buy(deps, { orgId: 'org', domain, reference, maxPriceCents });

describe('Porkbun as the registrar', () => {
  it('checks with POST /domain/checkDomain/{domain}, the keys in the body, and maps avail and price', async () => {
    fake.offer('getacme.com', '9.73');
    const quotes = await registrar().check(deps, ['GetAcme.com', 'taken.com', 'not a domain']);
    expect(quotes).toEqual([
      { domain: 'getacme.com', available: true, price_cents: 973 },
      { domain: 'taken.com', available: false, price_cents: null },
      { domain: 'not a domain', available: false, price_cents: null },
    ]);
    expect(fake.requests).toHaveLength(2);
    expect(fake.requests[0]).toMatchObject({ method: 'POST', path: '/api/json/v3/domain/checkDomain/getacme.com', json: { apikey: KEY, secretapikey: SECRET } });
    expect(priceCents('12.5')).toBe(1250);
    expect(priceCents('n/a')).toBeNull();
  });

  it('buys with POST /domain/create/{domain}: cost in cents, agreeToTerms, the reference as Idempotency-Key', async () => {
    fake.offer('getacme.com', '10.37');
    const r = await buy('getacme.com', 1_500, 'step-42');
    expect(r).toMatchObject({ ok: true, price_cents: 1037, repeated: false });
    expect(r.ok && r.order_id).toMatch(/^\d+$/);
    const [create] = fake.calls('create');
    expect(create.json).toMatchObject({ apikey: KEY, secretapikey: SECRET, cost: 1037, agreeToTerms: 'yes' });
    expect(create.headers['idempotency-key']).toBe('step-42');
    // listAll first, then the quote, then the order.
    expect(fake.requests.map((q) => q.path.split('/').slice(-2).join('/'))).toEqual(['domain/listAll', 'checkDomain/getacme.com', 'create/getacme.com']);
    expect(fake.owns('getacme.com')).toBe(true);
  });

  it('never buys twice: a domain the account holds answers repeated without a create', async () => {
    fake.offer('getacme.com', '10.37');
    expect(await buy('getacme.com')).toMatchObject({ ok: true, repeated: false });
    const again = await buy('getacme.com');
    expect(again).toMatchObject({ ok: true, repeated: true });
    fake.own('crashed.com');
    expect(await buy('crashed.com')).toMatchObject({ ok: true, repeated: true });
    expect(fake.calls('create')).toHaveLength(1);
  });

  it('maps not available and a price above the maximum, without ordering', async () => {
    expect(await buy('taken.com')).toMatchObject({ ok: false, reason: 'unavailable' });
    fake.offer('premium.com', '45.00');
    expect(await buy('premium.com', 2_000)).toMatchObject({ ok: false, reason: 'price_changed' });
    expect(fake.calls('create')).toHaveLength(0);
  });

  it('maps a create the registrar refuses: sold meanwhile → unavailable, price changed meanwhile → price_changed', async () => {
    fake.offer('raced.com', '9.73');
    fake.sellAtCreate('raced.com');
    expect(await buy('raced.com')).toMatchObject({ ok: false, reason: 'unavailable' });
    fake.offer('repriced.com', '9.73');
    fake.repriceAtCreate('repriced.com', '11.00');
    expect(await buy('repriced.com')).toMatchObject({ ok: false, reason: 'price_changed' });
    expect(fake.owns('raced.com') || fake.owns('repriced.com')).toBe(false);
  });

  it('429 is rate_limited with Retry-After; 5xx and timeouts are errors; a refused key is an error; no key in details', async () => {
    fake.offer('getacme.com', '9.73');
    fake.setFailure({ status: 429, retryAfterSec: 12 }, 1);
    const limited = await buy('getacme.com');
    expect(limited).toMatchObject({ ok: false, reason: 'rate_limited', retry_after_sec: 12 });
    fake.setFailure({ status: 503 });
    const failed = await buy('getacme.com');
    expect(failed).toMatchObject({ ok: false, reason: 'error' });
    expect(!failed.ok && failed.detail).toContain('503');
    fake.setFailure({ slowMs: 1_000 });
    const slow = await registrar({ timeoutMs: 100 }).buy(deps, { orgId: 'org', domain: 'getacme.com', reference: 's', maxPriceCents: 2_000 });
    expect(slow).toMatchObject({ ok: false, reason: 'error' });
    expect(!slow.ok && slow.detail).toMatch(/timeout/);
    fake.setFailure(null);
    const refused = await registrar({ secret: 'sk1_wrong_secret' }).buy(deps, { orgId: 'org', domain: 'getacme.com', reference: 's', maxPriceCents: 2_000 });
    expect(refused).toMatchObject({ ok: false, reason: 'error' });
    for (const r of [limited, failed, slow, refused]) {
      const detail = r.ok ? '' : r.detail;
      expect(detail).not.toContain(KEY);
      expect(detail).not.toContain(SECRET);
      expect(detail).not.toContain('sk1_wrong_secret');
    }
    expect(fake.calls('create')).toHaveLength(0);
  });

  it('a rate-limited check answers the rest of the batch unavailable without asking again', async () => {
    fake.offer('a.com', '9.00');
    fake.offer('b.com', '9.00');
    fake.setFailure({ status: 429, retryAfterSec: 10 }, 1);
    expect(await registrar().check(deps, ['a.com', 'b.com'])).toEqual([
      { domain: 'a.com', available: false, price_cents: null },
      { domain: 'b.com', available: false, price_cents: null },
    ]);
    expect(fake.requests).toHaveLength(1);
  });

  it('refuses to start with REGISTRAR=porkbun without both keys', () => {
    expect(() => createRegistrar(loadConfig({ REGISTRAR: 'porkbun', PORKBUN_API_KEY: KEY }))).toThrow(/PORKBUN_SECRET_API_KEY/);
    expect(createRegistrar(loadConfig({ REGISTRAR: 'porkbun', PORKBUN_API_KEY: KEY, PORKBUN_SECRET_API_KEY: SECRET })).kind).toBe('porkbun');
    expect(createRegistrar(loadConfig({})).kind).toBe('sim');
  });
});
