// Which ICP an imported lead falls in: the first (oldest) whose every given rule holds.
import { describe, expect, it } from 'vitest';
import { icpOf, matchesIcp, type IcpFacts } from '../../lib/pool/icp_match';

const facts = (f: Partial<IcpFacts> = {}): IcpFacts => ({ country: 'Germany', title: 'VP Sales', company: 'Acme Logistics', hook: null, note: null, volumeBand: 'high', ...f });

describe('ICP match', () => {
  it('matches countries case-insensitively, titles and keywords as substrings, volume bands exactly', () => {
    expect(matchesIcp({ countries: ['germany', 'Austria'] }, facts())).toBe(true);
    expect(matchesIcp({ countries: ['France'] }, facts())).toBe(false);
    expect(matchesIcp({ titles: ['sales'] }, facts())).toBe(true);
    expect(matchesIcp({ titles: ['marketing'] }, facts())).toBe(false);
    expect(matchesIcp({ volume_bands: ['high', 'medium'] }, facts())).toBe(true);
    expect(matchesIcp({ volume_bands: ['low'] }, facts({ volumeBand: null }))).toBe(false);
    expect(matchesIcp({ keywords: ['logistics'] }, facts())).toBe(true);
    expect(matchesIcp({ keywords: ['series b'] }, facts({ hook: 'Raised a Series B last month' }))).toBe(true);
    expect(matchesIcp({ keywords: ['fintech'] }, facts())).toBe(false);
  });

  it('needs every rule given to hold', () => {
    expect(matchesIcp({ countries: ['Germany'], titles: ['marketing'] }, facts())).toBe(false);
    expect(matchesIcp({ countries: ['Germany'], titles: ['sales'], keywords: ['acme'] }, facts())).toBe(true);
    // No rules: everyone (a catch-all ICP).
    expect(matchesIcp({}, facts())).toBe(true);
  });

  it('picks the first ICP in order, or none', () => {
    const list = [
      { id: 'a', rules: { countries: ['France'] } },
      { id: 'b', rules: { titles: ['sales'] } },
      { id: 'c', rules: {} },
    ];
    expect(icpOf(list, facts())).toBe('b');
    expect(icpOf(list.slice(0, 1), facts())).toBeNull();
  });
});
