// What an entry stores and what an address is checked against: normalisation, parent domains, public suffixes.
import { describe, expect, it } from 'vitest';
import { blockingValues, entryValue, isPublicSuffix } from '../../lib/suppression/values';

describe('blockingValues', () => {
  it('the address and every parent domain of two labels or more', () => {
    expect(blockingValues('A@X.Sales.Acme.co.uk')).toEqual({
      emails: ['a@x.sales.acme.co.uk'],
      domains: ['x.sales.acme.co.uk', 'sales.acme.co.uk', 'acme.co.uk', 'co.uk'],
    });
    expect(blockingValues(' ana@acme.com. ')).toEqual({ emails: ['ana@acme.com'], domains: ['acme.com'] });
  });

  it('a +tag address is also checked as its base address', () => {
    expect(blockingValues('ana+news@acme.com').emails).toEqual(['ana+news@acme.com', 'ana@acme.com']);
  });
});

describe('entryValue', () => {
  it('normalises addresses and domains', () => {
    expect(entryValue('email', ' Ana@Acme.COM ')).toBe('ana@acme.com');
    expect(entryValue('domain', '@Sales.Acme.com.')).toBe('sales.acme.com');
    expect(entryValue('domain', 'acme.co.uk')).toBe('acme.co.uk');
  });

  it('refuses public suffixes as domain entries, naming the field', () => {
    for (const d of ['com', 'co.uk', 'CO.UK', 'com.au', 'gob.mx', 'or.at', 'ac.jp', 'anything.bd', 'uk']) {
      expect(() => entryValue('domain', d, 'domain'), d).toThrow(/^domain: .*(public suffix|not a domain name)/);
    }
    expect(isPublicSuffix('co.uk')).toBe(true);
    expect(isPublicSuffix('acme.co.uk')).toBe(false);
    expect(isPublicSuffix('co.com')).toBe(false); // a registrable name under a generic TLD
  });

  it('refuses malformed values', () => {
    for (const v of ['ana', 'ana@', '@acme.com', 'a b@acme.com', 'a@b@acme.com', 'ana@-acme.com']) expect(() => entryValue('email', v), v).toThrow(/not an email address/);
    for (const v of ['acme', 'ac me.com', 'acme..com', 'a@acme.com']) expect(() => entryValue('domain', v), v).toThrow(/not a domain name|public suffix/);
  });
});
