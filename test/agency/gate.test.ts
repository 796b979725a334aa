import { describe, expect, it } from 'vitest';
import { gate, keyMayUse } from '../../lib/agency/gate';
import type { AuthContext } from '../../lib/auth/keys';

// The gate order of agency-operator.md §2, checked on every combination: a key with several problems is refused
// for the first of them in the order 403 feature_not_enabled → insufficient_scope → studio_not_enabled →
// read_only_key → demo_org (401 comes before, in the platform; validation and tenant checks after, in the faces).

const base: AuthContext = {
  keyId: 'k',
  keyName: 'assistant',
  prefix: 'live',
  orgId: 'o',
  orgName: 'Org',
  features: { crm: false, agency_tools: true, studio: true },
  clientId: null,
  scopes: ['agency.read', 'agency.write'],
  autonomyLevel: 0,
  rateLimitPerMinute: 100,
  dailyCreditLimit: 100,
  readOnly: false,
  kind: 'agency',
  orgDemo: false,
};

const studioWrite = { scope: 'agency.plans.approve' as const, studio: true, write: true };
const ORDER = ['feature_not_enabled', 'insufficient_scope', 'studio_not_enabled', 'read_only_key', 'demo_org'] as const;

function keyWith(problems: Set<string>): AuthContext {
  return {
    ...base,
    features: { ...base.features, agency_tools: !problems.has('feature_not_enabled'), studio: !problems.has('studio_not_enabled') },
    scopes: problems.has('insufficient_scope') ? base.scopes : [...base.scopes, 'agency.plans.approve'],
    readOnly: problems.has('read_only_key'),
    orgDemo: problems.has('demo_org'),
  };
}

const refusal = (op: typeof studioWrite, auth: AuthContext) => {
  try {
    gate(op, auth);
    return null;
  } catch (err) {
    return (err as { code: string }).code;
  }
};

describe('the agency gate', () => {
  it('refuses for the first problem in the spec order, for every combination of problems', () => {
    for (let mask = 0; mask < 1 << ORDER.length; mask++) {
      const problems = new Set(ORDER.filter((_, i) => mask & (1 << i)));
      const expected = ORDER.find((p) => problems.has(p)) ?? null;
      expect(refusal(studioWrite, keyWith(problems)), [...problems].join('+') || 'none').toBe(expected);
    }
  });

  it('lets reads through for audit keys and demo organizations, and lists what a key may use', () => {
    const read = { scope: 'agency.read' as const, studio: false, write: false };
    const audit = { ...base, readOnly: true, orgDemo: true };
    expect(refusal({ ...read } as never, audit)).toBeNull();
    expect(keyMayUse(read, audit)).toBe(true);
    expect(keyMayUse({ ...read, write: true }, audit)).toBe(false); // no write tool for an audit key
    expect(keyMayUse({ ...read, write: true }, { ...base, orgDemo: true })).toBe(true); // demo lists writes
    expect(keyMayUse({ ...read, studio: true }, { ...base, features: { ...base.features, studio: false } })).toBe(false);
    expect(keyMayUse({ scope: 'replies.send', studio: false, write: true }, base)).toBe(false);
  });

  it('never takes `*` for an agency scope', () => {
    const star = { ...base, kind: 'api' as const, scopes: ['*'] };
    expect(refusal({ scope: 'agency.read', studio: false, write: false } as never, star)).toBe('insufficient_scope');
  });
});
