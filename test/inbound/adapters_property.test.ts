// Whatever arrives at a webhook URL, an adapter answers with a verdict and never throws: arbitrary values, arbitrary
// JSON, and the documented bodies with any one field replaced by anything. A reply that comes out keeps the
// promises NormalizedInbound makes.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { adapterFor, INBOUND_PROVIDERS } from '../../lib/inbound/adapters';
import type { AdapterResult, InboundProvider } from '../../lib/inbound/types';
import { fixture, fixturesOf, type Json } from './fixtures';

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
// Values random generation rarely hits: blanks, other formats' event names, names an object literal would resolve.
const TRICKY_VALUES = ['', ' ', null, 0, -1, '2026-03-05', 'a@b.co', 'reply_received', 'EMAIL_REPLY', 'lead_replied', 'constructor', '__proto__', 'toString'];

function checkVerdict(result: AdapterResult): void {
  switch (result.kind) {
    case 'ignored':
      expect(result.reason).toMatch(/\S/);
      return;
    case 'invalid':
      expect(result.problems.length).toBeGreaterThan(0);
      for (const p of result.problems) expect(p).toMatch(/^[\w.]+( \/ [\w.]+)*: \S/);
      return;
    case 'reply': {
      const r = result.reply;
      expect(r.message_id).toMatch(/\S/);
      expect(r.from_email).toBe(r.from_email.trim().toLowerCase());
      expect(r.from_email).toContain('@');
      expect(Boolean(r.text?.trim() || r.html?.trim())).toBe(true);
      expect(Boolean(r.campaign.id || r.campaign.name)).toBe(true);
      if ('received_at' in r) expect(new Date(r.received_at!).toISOString()).toBe(r.received_at);
      return;
    }
    default:
      throw new Error(`not a verdict: ${JSON.stringify(result)}`);
  }
}

/** Every path to a value in a JSON object (`reply_message.html`, `data.reply.id`), objects included. */
function pathsOf(value: unknown, prefix: string[] = []): string[][] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.entries(value).flatMap(([k, v]) => [[...prefix, k], ...pathsOf(v, [...prefix, k])]);
}

function replaced(body: Json, path: string[], value: unknown): Json {
  const copy = structuredClone(body);
  const parent = path.slice(0, -1).reduce<Json>((o, k) => o[k], copy);
  parent[path[path.length - 1]] = value;
  return copy;
}

describe.each(INBOUND_PROVIDERS)('%s never throws', (provider: InboundProvider) => {
  const adapter = adapterFor(provider);

  it('for any value', () => {
    fc.assert(fc.property(fc.anything(), (value) => checkVerdict(adapter.parse(value))), { numRuns: RUNS });
  });

  it('for any JSON text, parsed', () => {
    fc.assert(fc.property(fc.json(), (text) => checkVerdict(adapter.parse(JSON.parse(text)))), { numRuns: RUNS });
  });

  // The generic format has no fixtures of other events; its one fixture is the reply.
  const bodies = fixturesOf(provider).map((name) => fixture(name));
  const cases = bodies.flatMap((body) => pathsOf(body).map((path) => ({ body, path })));

  it('for a documented body with one field replaced by anything', () => {
    fc.assert(
      fc.property(fc.constantFrom(...cases), fc.oneof(fc.jsonValue(), fc.anything(), fc.constantFrom(...TRICKY_VALUES)), ({ body, path }, value) =>
        checkVerdict(adapter.parse(replaced(body, path, value))),
      ),
      { numRuns: RUNS * 3 },
    );
  });
});
