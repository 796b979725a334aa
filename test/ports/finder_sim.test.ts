// The simulated finder chain: a function of SHA-256 of the input and SIM_SEED (same input, same answer; another
// seed, another world), three providers of which at most one finds a person, one address pattern per domain,
// catch-all domains verifying risky, and the fault injections (fail- → every provider errors, slow- → the first
// provider rate-limits with Retry-After).
import { describe, expect, it } from 'vitest';
import { createSimFinder, nameParts, SIM_PROVIDERS, SIM_RETRY_AFTER_SEC, simTruth } from '../../lib/ports/finder/sim';
import type { FindInput } from '../../lib/ports/finder/port';

const person = (i: number, domain = `company${i % 40}.com`): FindInput => ({ first_name: `Ana${i}`, last_name: `Lopez${i}`, full_name: null, domain });

describe('the simulated email finder', () => {
  it('answers the same for the same input and seed, and differently under another seed', async () => {
    const a = createSimFinder('seed-a');
    const again = createSimFinder('seed-a');
    const b = createSimFinder('seed-b');
    const inputs = Array.from({ length: 60 }, (_, i) => person(i));
    const answers = async (f: ReturnType<typeof createSimFinder>) => Promise.all(inputs.map(async (x) => (await Promise.all(f.providers.map((p) => p.find(x)))).map((r) => r.email ?? r.outcome)));
    const first = await answers(a);
    expect(await answers(again)).toEqual(first);
    expect(await answers(b)).not.toEqual(first);
  });

  it('at most one provider finds a person; every provider shares in the finds and some people nobody finds', async () => {
    const f = createSimFinder('spread');
    const finders: Record<string, number> = {};
    for (let i = 0; i < 400; i++) {
      const results = await Promise.all(f.providers.map((p) => p.find(person(i))));
      const found = results.map((r, k) => (r.outcome === 'found' ? SIM_PROVIDERS[k] : null)).filter(Boolean) as string[];
      expect(found.length).toBeLessThanOrEqual(1);
      const who = found[0] ?? 'nobody';
      finders[who] = (finders[who] ?? 0) + 1;
      for (const r of results) expect(r.simulated).toBe(true);
    }
    for (const who of [...SIM_PROVIDERS, 'nobody']) expect(finders[who], who).toBeGreaterThan(20);
    expect(finders['sim-alpha']).toBeGreaterThan(finders['sim-gamma']);
  });

  it('one address pattern per domain, built from the normalised name', async () => {
    const truths = await Promise.all(['José', 'Marie-Claire', 'Ole'].map((first, i) => simTruth('patterns', { first_name: first, last_name: `O'Brien${i}`, full_name: null, domain: 'acme.io' })));
    expect(new Set(truths.map((t) => t.pattern)).size).toBe(1);
    for (const t of truths) expect(t.email).toMatch(/^[a-z._]+\d?[a-z._]*@acme\.io$/);
    expect(truths[0].email).not.toContain('é');
    // A full name is split into first and last; a single word is not enough to search.
    expect(nameParts({ first_name: null, last_name: null, full_name: 'Grace Brewster Hopper' })).toEqual({ first: 'grace', last: 'hopper' });
    expect(nameParts({ first_name: 'Grace', last_name: null, full_name: null })).toBeNull();
    expect((await simTruth('patterns', { first_name: 'Grace', last_name: null, full_name: null, domain: 'acme.io' })).email).toBeNull();
  });

  it('verifies addresses on catch-all domains as risky, a few dead mailboxes as invalid, the rest valid', async () => {
    const f = createSimFinder('verify');
    const statuses: Record<string, number> = {};
    for (let i = 0; i < 300; i++) {
      const t = await simTruth('verify', person(i, `firm${i}.com`));
      const v = await f.verifier.verify(t.email!);
      expect(v.outcome).toBe('verified');
      expect(v.status).toBe(t.catchAll ? 'risky' : t.invalid ? 'invalid' : 'valid');
      statuses[v.status!] = (statuses[v.status!] ?? 0) + 1;
    }
    expect(statuses.valid).toBeGreaterThan(150);
    expect(statuses.risky).toBeGreaterThan(10);
    expect(statuses.invalid).toBeGreaterThan(5);
  });

  it('fail- domains make every provider fail; slow- domains rate-limit the first provider only', async () => {
    const f = createSimFinder('faults');
    const failing = await Promise.all(f.providers.map((p) => p.find(person(1, 'fail-corp.com'))));
    expect(failing.map((r) => r.outcome)).toEqual(['error', 'error', 'error']);
    expect(failing.every((r) => r.cost_micros === 0 && r.email === null)).toBe(true);
    const slow = await Promise.all(f.providers.map((p) => p.find(person(1, 'slow-corp.com'))));
    expect(slow[0]).toMatchObject({ outcome: 'rate_limited', retry_after_sec: SIM_RETRY_AFTER_SEC, email: null });
    for (const r of slow.slice(1)) expect(['found', 'not_found']).toContain(r.outcome);
  });
});
