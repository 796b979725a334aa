// The value normalizers every adapter shares: times as the providers write them, addresses, Message-IDs, ids.
import { describe, expect, it } from 'vitest';
import { emailAddress, idString, isoTime, rfcMessageId } from '../../lib/inbound/adapters/fields';

describe('isoTime', () => {
  it.each<[string | number, string]>([
    ['2026-03-04T14:22:07.512Z', '2026-03-04T14:22:07.512Z'],
    ['2025-03-28T09:35:01+00:00', '2025-03-28T09:35:01.000Z'], // Smartlead event_timestamp
    ['2023-09-25T17:29:11.618881+00:00', '2023-09-25T17:29:11.618Z'], // Smartlead, microseconds
    ['2024-08-02T06:08:38.000000Z', '2024-08-02T06:08:38.000Z'], // EmailBison, microseconds
    ['2026-03-05T09:30:00+01:00', '2026-03-05T08:30:00.000Z'],
    ['2026-03-05T09:30:00-0530', '2026-03-05T15:00:00.000Z'],
    ['2026-03-05T09:30+02', '2026-03-05T07:30:00.000Z'],
    ['2026-03-05 09:30:00', '2026-03-05T09:30:00.000Z'], // no offset: UTC, as the providers document
    ['2026-03-05', '2026-03-05T00:00:00.000Z'],
    [1772634127, '2026-03-04T14:22:07.000Z'], // unix seconds
    [1772634127512, '2026-03-04T14:22:07.512Z'], // unix milliseconds
    ['1772634127', '2026-03-04T14:22:07.000Z'],
  ])('%j → %s', (value, iso) => {
    expect(isoTime(value)).toBe(iso);
  });

  it.each<string | number>(['yesterday', '', '05/03/2026 10:12', '2026-13-45T99:99:99Z', 'Thu, 05 Mar 2026 10:12:44 GMT', -1, 1e20, Number.MAX_VALUE])(
    '%j is not a time',
    (value) => {
      expect(isoTime(value)).toBeNull();
    },
  );
});

describe('emailAddress', () => {
  it('trims, lower-cases and takes the address out of "Name <address>"', () => {
    expect(emailAddress('  Dana.Whitfield@Northwind-Freight.com ')).toEqual({ email: 'dana.whitfield@northwind-freight.com' });
    expect(emailAddress('Sunita Soy <Sunita@Example.org>')).toEqual({ email: 'sunita@example.org' });
  });

  it('tells absent from not an address', () => {
    expect([emailAddress(null), emailAddress(undefined), emailAddress('  ')]).toEqual(['absent', 'absent', 'absent']);
    expect([emailAddress('dana'), emailAddress('dana@'), emailAddress('a b@c.com')]).toEqual(['invalid', 'invalid', 'invalid']);
  });
});

describe('rfcMessageId and idString', () => {
  it('recognizes <local@domain> only', () => {
    expect(rfcMessageId(' <CAJZgRaRf=B4WEPmv4gujBNmJE46XpNbWiN7V_DHsAvyvqgEpDg@mail.gmail.com> ')).toBe('<CAJZgRaRf=B4WEPmv4gujBNmJE46XpNbWiN7V_DHsAvyvqgEpDg@mail.gmail.com>');
    expect([rfcMessageId('019cc0a1-6f3e'), rfcMessageId('abc123@smartlead.ai'), rfcMessageId('<no-at-sign>'), rfcMessageId(null)]).toEqual([null, null, null, null]);
  });

  it('makes every id a string and treats blank as absent', () => {
    expect([idString(725), idString(' 725 '), idString(''), idString(null), idString(0)]).toEqual(['725', '725', null, null, '0']);
  });
});
