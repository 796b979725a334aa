// The DNS-over-HTTPS adapter against a local fake of the documented JSON API: MX → mail type, SPF → sender, the
// request it sends, and every failure (SERVFAIL, HTTP errors, a slow server) leaving the domain out, within bounds.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDohDns, txtText } from '../../lib/ports/dns/doh';
import { startFakeDoh } from '../infra/fake_doh';

let doh: Awaited<ReturnType<typeof startFakeDoh>>;
beforeAll(async () => {
  doh = await startFakeDoh({
    'acme.com': { mx: ['10 aspmx.l.google.com.', '20 alt1.aspmx.l.google.com.'], txt: ['google-site-verification=abc', 'v=spf1 include:sendgrid.net include:_spf.google.com ~all'] },
    'beta.io': { mx: ['0 beta-io.mail.protection.outlook.com.'], txt: ['v=spf1 include:spf.protection.outlook.com -all'] },
    'gamma.de': { mx: ['10 mx1.gamma.de.'], txt: [] },
    'nullmx.org': { mx: ['0 .'], txt: ['v=spf1 -all'] },
    'nomx.net': { txt: ['v=spf1 include:amazonses.com ~all'] },
    'broken.com': { status: 2 },
  });
});
afterAll(() => doh.close());

describe('DoH adapter', () => {
  it('reads mail type and sender from MX and SPF, asking as the JSON API documents', async () => {
    doh.reset();
    const out = await createDohDns({ url: doh.url }).scan(['Acme.com', 'beta.io', 'gamma.de', 'nullmx.org', 'nomx.net', 'acme.com']);
    expect(out.get('acme.com')).toEqual({
      domain: 'acme.com',
      mail_type: 'google_workspace',
      current_sender: 'sendgrid',
      mx: ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'],
      spf: 'v=spf1 include:sendgrid.net include:_spf.google.com ~all',
    });
    expect(out.get('beta.io')).toMatchObject({ mail_type: 'microsoft_365', current_sender: 'outlook' });
    expect(out.get('gamma.de')).toMatchObject({ mail_type: 'other', current_sender: null, spf: null });
    expect(out.get('nullmx.org')).toMatchObject({ mail_type: 'none', current_sender: null });
    expect(out.get('nomx.net')).toMatchObject({ mail_type: 'none', current_sender: 'amazon_ses' });
    expect(out.get('acme.com')).not.toHaveProperty('simulated');
    // One MX and one TXT question per distinct domain, with the JSON media type.
    expect(doh.requests).toHaveLength(10);
    for (const r of doh.requests) {
      expect(r.method).toBe('GET');
      expect(r.path).toBe('/dns-query');
      expect(r.headers.accept).toBe('application/dns-json');
      expect(['MX', 'TXT']).toContain(r.query.type);
    }
  });

  it('treats an unknown name (NXDOMAIN) as no mail, and leaves out SERVFAIL and names that are not domains', async () => {
    doh.reset();
    const out = await createDohDns({ url: doh.url }).scan(['unknown-name.com', 'broken.com', 'bad name', 'x']);
    expect(out.get('unknown-name.com')).toMatchObject({ mail_type: 'none', current_sender: null });
    expect(out.has('broken.com')).toBe(false);
    expect(doh.requests.map((r) => r.query.name).sort()).toEqual(['broken.com', 'broken.com', 'unknown-name.com', 'unknown-name.com']);
  });

  it('leaves every domain out when the server fails with HTTP errors', async () => {
    doh.reset();
    doh.setFailure({ status: 503 });
    const out = await createDohDns({ url: doh.url }).scan(['acme.com', 'beta.io']);
    expect(out.size).toBe(0);
    doh.setFailure(null);
  });

  it('gives up on a slow server at its request limit and within the scan deadline', async () => {
    doh.reset();
    doh.setFailure({ slowMs: 2_000 });
    const dns = createDohDns({ url: doh.url, timeoutMs: 100, deadlineMs: 150, concurrency: 1 });
    const out = await dns.scan(['acme.com', 'beta.io', 'gamma.de', 'nullmx.org', 'nomx.net']);
    // The server does answer, correctly, after 2 s: an empty map means the adapter stopped waiting first.
    expect(out.size).toBe(0);
    // The deadline stops the scan: one worker with 150 ms for 100 ms requests never reaches all 5 domains.
    expect(new Set(doh.requests.map((r) => r.query.name)).size).toBeLessThan(5);
    doh.setFailure(null);
  });

  it('joins the quoted strings of one TXT record as RFC 7208 says', () => {
    expect(txtText('"v=spf1 include:_spf.google.com" " ~all"')).toBe('v=spf1 include:_spf.google.com ~all');
    expect(txtText('v=spf1 -all')).toBe('v=spf1 -all');
    expect(txtText('"a\\"b"')).toBe('a"b');
  });
});
