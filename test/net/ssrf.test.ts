import { describe, expect, it } from 'vitest';
import { nodeResolver } from '../../lib/net/node_resolver';
import { checkOutboundUrl, isDisallowedAddress, type Resolver } from '../../lib/net/ssrf';

// Without a resolver only the literal host is judged (the Workers situation).
const ALLOWED: string[] = [
  'https://example.com/webhooks',
  'https://hooks.example.co.uk:8443/path?q=1#frag',
  'https://EXAMPLE.com./x', // trailing dot on a public name is fine
  'https://8.8.8.8/',
  'https://1.1.1.1:443/hook',
  'https://[2606:4700:4700::1111]/',
  'https://[2001:4860:4860::8888]/',
  'https://[::ffff:8.8.8.8]/', // mapped, but to a public v4
  'https://172.32.0.1/', // just outside 172.16/12
  'https://100.128.0.1/', // just outside 100.64/10
  'https://169.255.0.1/',
  'https://evil.com#@127.0.0.1', // the @ is in the fragment; host is evil.com
  'https://xn--bcher-kva.example/', // IDN
];

const REFUSED: Array<[string, RegExp]> = [
  // schemes
  ['http://example.com/', /plain http/],
  ['ftp://example.com/', /scheme ftp:/],
  ['file:///etc/passwd', /scheme file:/],
  ['gopher://127.0.0.1:6379/_INFO', /scheme gopher:/],
  ['javascript:alert(1)', /scheme javascript:/],
  ['not a url', /not a valid URL/],
  ['https://[fe80::1%25eth0]/', /not a valid URL/], // zone ids are rejected by URL
  // credentials (fetch refuses them anyway) incl. the userinfo trick
  ['https://evil@127.0.0.1/', /credentials/],
  ['https://user:pass@example.com/', /credentials/],
  ['https://127.0.0.1:443@evil.com/', /credentials/],
  // every disallowed IPv4 range
  ['https://127.0.0.1/', /not publicly routable/],
  ['https://127.255.255.254/', /not publicly routable/],
  ['https://10.0.0.1/', /not publicly routable/],
  ['https://172.16.0.1/', /not publicly routable/],
  ['https://172.31.255.255/', /not publicly routable/],
  ['https://192.168.1.1/', /not publicly routable/],
  ['https://169.254.169.254/latest/meta-data/', /not publicly routable/],
  ['https://100.64.0.1/', /not publicly routable/],
  ['https://100.127.255.255/', /not publicly routable/],
  ['https://0.0.0.0/', /not publicly routable/],
  ['https://0/', /not publicly routable/],
  ['https://224.0.0.1/', /not publicly routable/],
  ['https://239.255.255.250/', /not publicly routable/],
  ['https://240.0.0.1/', /not publicly routable/],
  ['https://255.255.255.255/', /not publicly routable/],
  ['https://192.0.2.1/', /not publicly routable/],
  ['https://198.18.0.1/', /not publicly routable/],
  ['https://203.0.113.5/', /not publicly routable/],
  // alternative IPv4 spellings that URL folds into 127.0.0.1 / metadata
  ['https://2130706433/', /127\.0\.0\.1.*not publicly routable/],
  ['https://0x7f.1/', /127\.0\.0\.1/],
  ['https://0x7f000001/', /127\.0\.0\.1/],
  ['https://0177.0.0.1/', /127\.0\.0\.1/],
  ['https://017700000001/', /127\.0\.0\.1/],
  ['https://127.1/', /127\.0\.0\.1/],
  ['https://127.0.0.1./', /127\.0\.0\.1/],
  ['https://%31%32%37.0.0.1/', /127\.0\.0\.1/],
  ['https://①②⑦.0.0.1/', /127\.0\.0\.1/],
  ['https://2852039166/', /169\.254\.169\.254/],
  ['https://0xa9.0xfe.0xa9.0xfe/', /169\.254\.169\.254/],
  // IPv6 literals
  ['https://[::1]/', /not publicly routable/],
  ['https://[::1]:8080/', /not publicly routable/],
  ['https://[0:0:0:0:0:0:0:1]/', /not publicly routable/],
  ['https://[::]/', /not publicly routable/],
  ['https://[fc00::1]/', /not publicly routable/],
  ['https://[fd12:3456::1]/', /not publicly routable/],
  ['https://[fe80::1]/', /not publicly routable/],
  ['https://[ff02::1]/', /not publicly routable/],
  ['https://[2001:db8::1]/', /not publicly routable/],
  ['https://[::ffff:127.0.0.1]/', /not publicly routable/],
  ['https://[::ffff:7f00:1]/', /not publicly routable/],
  ['https://[0:0:0:0:0:ffff:169.254.169.254]/', /not publicly routable/],
  ['https://[::ffff:10.0.0.1]/', /not publicly routable/],
  ['https://[64:ff9b::127.0.0.1]/', /not publicly routable/], // NAT64 to loopback
  ['https://[::127.0.0.1]/', /not publicly routable/], // deprecated v4-compatible
  ['https://[2002:7f00:1::]/', /not publicly routable/], // 6to4 wrapping 127.0.0.1
  // internal names
  ['https://localhost/', /internal/],
  ['https://LOCALHOST./', /internal/],
  ['https://localhost%2e/', /internal/],
  ['https://api.localhost/', /internal/],
  ['https://metadata/', /internal/],
  ['https://metadata.google.internal/computeMetadata/v1/', /internal/],
  ['https://metadata.google.internal./', /internal/],
  ['https://db.corp.internal/', /internal/],
  ['https://printer.local/', /internal/],
  ['https://intranet/', /single-label/],
];

describe('checkOutboundUrl: literal checks (no resolver)', () => {
  it('has a big enough table', () => {
    expect(ALLOWED.length + REFUSED.length).toBeGreaterThanOrEqual(30);
  });

  it.each(ALLOWED)('allows %s', async (url) => {
    const r = await checkOutboundUrl(url, { allowPrivate: false });
    expect(r).toMatchObject({ ok: true });
    if (r.ok) expect(r.url).toBeInstanceOf(URL);
  });

  it.each(REFUSED)('refuses %s', async (url, reason) => {
    const r = await checkOutboundUrl(url, { allowPrivate: false });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('returns the normalised URL, which is what must be fetched', async () => {
    const r = await checkOutboundUrl('https://Example.COM:443/a/../b', { allowPrivate: false });
    expect(r.ok && r.url.href).toBe('https://example.com/b');
  });
});

describe('checkOutboundUrl: resolved names', () => {
  const fake =
    (table: Record<string, string[]>): Resolver =>
    async (host) => {
      if (!(host in table)) throw new Error('ENOTFOUND');
      return table[host];
    };
  const resolve = fake({
    'public.example': ['93.184.216.34', '2606:2800:220:1::1'],
    'rebind.example': ['127.0.0.1'],
    'metadata.example': ['169.254.169.254'],
    'mixed.example': ['93.184.216.34', '10.1.2.3'],
    'v6private.example': ['fd00::5'],
    'mapped.example': ['::ffff:192.168.0.1'],
    'scoped.example': ['fe80::1%eth0'],
    'empty.example': [],
  });

  it('allows a name that resolves only to public addresses', async () => {
    expect((await checkOutboundUrl('https://public.example/x', { allowPrivate: false, resolve })).ok).toBe(true);
  });

  it.each([
    ['https://rebind.example/', /127\.0\.0\.1/],
    ['https://metadata.example/', /169\.254\.169\.254/],
    ['https://mixed.example/', /10\.1\.2\.3/], // ANY bad answer refuses
    ['https://v6private.example/', /fd00::5/],
    ['https://mapped.example/', /::ffff:192\.168\.0\.1/],
    ['https://scoped.example/', /fe80::1/],
    ['https://empty.example/', /no addresses/],
    ['https://nxdomain.example/', /could not resolve.*ENOTFOUND/],
  ])('refuses %s', async (url, reason) => {
    const r = await checkOutboundUrl(url, { allowPrivate: false, resolve });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.reason).toMatch(reason);
  });

  it('passes the name without its trailing dot and never resolves IP literals', async () => {
    const seen: string[] = [];
    const spy: Resolver = async (h) => (seen.push(h), ['93.184.216.34']);
    await checkOutboundUrl('https://public.example./', { allowPrivate: false, resolve: spy });
    await checkOutboundUrl('https://8.8.8.8/', { allowPrivate: false, resolve: spy });
    expect(seen).toEqual(['public.example']);
  });
});

describe('checkOutboundUrl: allowPrivate', () => {
  it.each(['http://127.0.0.1:8787/hook', 'http://localhost:3000/', 'https://[::1]/', 'http://10.0.0.5/'])(
    'lets %s through',
    async (url) => {
      const resolve: Resolver = async () => ['127.0.0.1'];
      expect((await checkOutboundUrl(url, { allowPrivate: true, resolve })).ok).toBe(true);
    },
  );

  it('still refuses non-http schemes and credentials', async () => {
    expect((await checkOutboundUrl('file:///etc/passwd', { allowPrivate: true })).ok).toBe(false);
    expect((await checkOutboundUrl('http://a:b@127.0.0.1/', { allowPrivate: true })).ok).toBe(false);
  });
});

describe('isDisallowedAddress', () => {
  it.each([
    '127.0.0.1', '10.255.255.255', '172.16.0.0', '192.168.255.255', '169.254.169.254', '100.64.0.0',
    '0.0.0.0', '224.0.0.1', '255.255.255.255', '::', '::1', '::ffff:127.0.0.1', '::ffff:7f00:1',
    '0:0:0:0:0:ffff:a9fe:a9fe', 'fc00::', 'fdff:ffff::1', 'fe80::1', 'febf::1', 'fe80::1%lo0', 'ff02::1',
    '[::1]', '64:ff9b::a00:1', '2001::1', '2001:db8::', '100::1',
    // garbage fails closed
    '', 'localhost', '1.2.3', '256.1.1.1', '1::2::3', '12345::', 'gggg::1', '1:2:3:4:5:6:7:8:9', ':::',
  ])('%s is disallowed', (ip) => {
    expect(isDisallowedAddress(ip)).toBe(true);
  });

  it.each([
    '8.8.8.8', '93.184.216.34', '172.15.255.255', '172.32.0.0', '100.63.255.255', '100.128.0.0', '169.253.1.1',
    '223.255.255.255', '2606:4700:4700::1111', '2a00:1450:4001:81b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808',
    '2001:4860:0:0:0:0:0:8888', '0:0:0:0:0:ffff:1.2.3.4', '2001:200::1',
  ])('%s is allowed', (ip) => {
    expect(isDisallowedAddress(ip)).toBe(false);
  });
});

describe('nodeResolver', () => {
  it('resolves through getaddrinfo (/etc/hosts), so localhost comes back as loopback', async () => {
    const addrs = await nodeResolver('localhost');
    expect(addrs.length).toBeGreaterThan(0);
    expect(addrs.every(isDisallowedAddress)).toBe(true);
  });

  it('rejects for a name that cannot exist, which checkOutboundUrl turns into a refusal', async () => {
    const r = await checkOutboundUrl('https://no-such-host.invalid/', { allowPrivate: false, resolve: nodeResolver });
    expect(r).toMatchObject({ ok: false, reason: expect.stringMatching(/could not resolve/) });
  });
});
