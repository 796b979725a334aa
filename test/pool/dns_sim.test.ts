// The embedded DNS: deterministic by seed and domain, read by the production classification; fail-/slow- faults.
import { describe, expect, it } from 'vitest';
import { mailTypeOf, senderOf, spfOf } from '../../lib/ports/dns/classify';
import { createDnsPort } from '../../lib/ports/dns';
import { createSimDns } from '../../lib/ports/dns/sim';

const domains = Array.from({ length: 60 }, (_, i) => `company-${i}.com`);

describe('DNS simulation', () => {
  it('answers the same for the same seed and domain, and differently under another seed', async () => {
    const a = await createSimDns({ seed: 's1' }).scan(domains);
    const b = await createSimDns({ seed: 's1' }).scan(domains);
    const c = await createSimDns({ seed: 's2' }).scan(domains);
    expect([...a.entries()]).toEqual([...b.entries()]);
    expect([...a.values()].map((s) => s.mail_type)).not.toEqual([...c.values()].map((s) => s.mail_type));
    for (const s of a.values()) {
      expect(s.simulated).toBe(true);
      // Its results are what the production classification makes of its records.
      expect(s.mail_type).toBe(mailTypeOf(s.mx));
      expect(s.current_sender).toBe(senderOf(s.spf));
    }
    const kinds = new Set([...a.values()].map((s) => s.mail_type));
    expect(kinds.has('google_workspace') && kinds.has('microsoft_365')).toBe(true);
  });

  it('leaves fail- domains out and still answers slow- ones; lower-cases, de-duplicates and skips non-domains', async () => {
    const out = await createSimDns({ seed: 's' }).scan(['fail-acme.com', 'slow-beta.io', 'Gamma.DE', 'gamma.de', 'not a domain', '']);
    expect([...out.keys()].sort()).toEqual(['gamma.de', 'slow-beta.io']);
  });

  it('is the port the default configuration builds', () => {
    expect(createDnsPort({ DNS: 'sim', DOH_URL: 'https://dns.example/dns-query', SIM_SEED: 'x' }).kind).toBe('sim');
    expect(createDnsPort({ DNS: 'doh', DOH_URL: 'https://dns.example/dns-query', SIM_SEED: 'x' }).kind).toBe('doh');
  });
});

describe('MX and SPF classification', () => {
  it('names the mail host from MX', () => {
    expect(mailTypeOf(['ASPMX.L.GOOGLE.COM.'])).toBe('google_workspace');
    expect(mailTypeOf(['mx.googlemail.com'])).toBe('google_workspace');
    expect(mailTypeOf(['acme-com.mail.protection.outlook.com'])).toBe('microsoft_365');
    expect(mailTypeOf(['mx1.acme.com'])).toBe('other');
    expect(mailTypeOf([])).toBe('none');
    expect(mailTypeOf([''])).toBe('none');
    // A look-alike is not Google.
    expect(mailTypeOf(['mx.notgoogle.com'])).toBe('other');
  });

  it('names the first recognisable SPF include', () => {
    expect(senderOf('v=spf1 include:_spf.google.com ~all')).toBe('google');
    expect(senderOf('v=spf1 ip4:1.2.3.4 include:unknown.example include:sendgrid.net include:_spf.google.com -all')).toBe('sendgrid');
    expect(senderOf('v=spf1 include:spf.protection.outlook.com -all')).toBe('outlook');
    expect(senderOf('v=spf1 include:amazonses.com ~all')).toBe('amazon_ses');
    expect(senderOf('v=spf1 include:mailgun.org ~all')).toBe('mailgun');
    expect(senderOf('v=spf1 redirect=_spf.google.com')).toBe('google');
    expect(senderOf('v=spf1 -all')).toBeNull();
    expect(senderOf(null)).toBeNull();
    expect(spfOf(['google-site-verification=x', 'v=spf1 include:x ~all'])).toBe('v=spf1 include:x ~all');
    expect(spfOf(['v=spf10 nope'])).toBeNull();
  });
});
