// Outbound URL policy for customer-supplied webhook targets.
//
// We let WHATWG `URL` do the parsing: it already folds decimal/octal/hex IPv4
// (`2130706433`, `0x7f.1`), percent-encoding, fullwidth digits and trailing
// dots on IPv4 into a canonical dotted quad, and compresses IPv6. Checking its
// output (and fetching `url.href`, not the original string) means we judge
// exactly what fetch will connect to.
//
// DNS rebinding is not covered here: the name is resolved again at fetch time.
// Redirects are not followed by deliverOnce, so a 30x can't bounce inward.

export type Resolver = (host: string) => Promise<string[]>;

export type OutboundCheck = { ok: true; url: URL } | { ok: false; reason: string };

const BLOCKED_NAMES = new Set(['localhost', 'metadata', 'metadata.google.internal']);
// `.local` is mDNS and `.home.arpa` the home-network zone: both are LAN-only by definition.
const BLOCKED_SUFFIXES = ['.localhost', '.internal', '.local', '.home.arpa'];

export async function checkOutboundUrl(
  url: string,
  opts: { allowPrivate: boolean; resolve?: Resolver },
): Promise<OutboundCheck> {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') {
    return { ok: false, reason: `scheme ${u.protocol} not allowed (use https)` };
  }
  // fetch() refuses URLs with credentials on both runtimes, so such an endpoint could never deliver.
  if (u.username || u.password) return { ok: false, reason: 'URL must not contain credentials' };
  if (opts.allowPrivate) return { ok: true, url: u };
  if (u.protocol !== 'https:') return { ok: false, reason: 'plain http is not allowed (use https)' };

  const host = u.hostname;
  if (host.startsWith('[')) {
    return isDisallowedAddress(host.slice(1, -1))
      ? { ok: false, reason: `address ${host} is not publicly routable` }
      : { ok: true, url: u };
  }
  if (parseIPv4(host)) {
    return isDisallowedAddress(host)
      ? { ok: false, reason: `address ${host} is not publicly routable` }
      : { ok: true, url: u };
  }

  const name = host.replace(/\.+$/, '');
  if (BLOCKED_NAMES.has(name) || BLOCKED_SUFFIXES.some((s) => name.endsWith(s))) {
    return { ok: false, reason: `host ${name} is internal` };
  }
  // Dotless names go through the resolver's search domains and land on intranet hosts.
  if (!name.includes('.')) return { ok: false, reason: `single-label host ${name} is not allowed` };

  if (!opts.resolve) return { ok: true, url: u };
  let addresses: string[];
  try {
    addresses = await opts.resolve(name);
  } catch (err) {
    return { ok: false, reason: `could not resolve ${name}: ${err instanceof Error ? err.message : String(err)}` };
  }
  if (addresses.length === 0) return { ok: false, reason: `${name} has no addresses` };
  // ANY bad address refuses: the connecting client may pick any of them.
  const bad = addresses.find(isDisallowedAddress);
  if (bad !== undefined) return { ok: false, reason: `${name} resolves to non-public address ${bad}` };
  return { ok: true, url: u };
}

/** True for anything that is not a public unicast address, including garbage (fail closed). */
export function isDisallowedAddress(ip: string): boolean {
  const v4 = parseIPv4(ip);
  if (v4) return isDisallowedV4(v4);
  const v6 = parseIPv6(ip.replace(/^\[|\]$/g, '').replace(/%.*$/, ''));
  if (!v6) return true;
  return isDisallowedV6(v6);
}

// [base, prefix length]: the IANA IPv4 special-purpose registry plus multicast/reserved.
const V4_BLOCKS: Array<[number[], number]> = [
  [[0, 0, 0, 0], 8], // "this network" / unspecified
  [[10, 0, 0, 0], 8], // private
  [[100, 64, 0, 0], 10], // CGNAT
  [[127, 0, 0, 0], 8], // loopback
  [[169, 254, 0, 0], 16], // link-local, incl. 169.254.169.254 cloud metadata
  [[172, 16, 0, 0], 12], // private
  [[192, 0, 0, 0], 24], // IETF protocol assignments
  [[192, 0, 2, 0], 24], // TEST-NET-1
  [[192, 88, 99, 0], 24], // 6to4 relay anycast
  [[192, 168, 0, 0], 16], // private
  [[198, 18, 0, 0], 15], // benchmarking
  [[198, 51, 100, 0], 24], // TEST-NET-2
  [[203, 0, 113, 0], 24], // TEST-NET-3
  [[224, 0, 0, 0], 4], // multicast
  [[240, 0, 0, 0], 4], // reserved + broadcast
];

function toU32(o: number[]): number {
  return ((o[0] << 24) | (o[1] << 16) | (o[2] << 8) | o[3]) >>> 0;
}

function isDisallowedV4(octets: number[]): boolean {
  const addr = toU32(octets);
  return V4_BLOCKS.some(([base, len]) => {
    const mask = len === 0 ? 0 : (0xffffffff << (32 - len)) >>> 0;
    return ((addr & mask) >>> 0) === toU32(base);
  });
}

function isDisallowedV6(g: number[]): boolean {
  const first5Zero = g[0] === 0 && g[1] === 0 && g[2] === 0 && g[3] === 0 && g[4] === 0;
  // ::ffff:a.b.c.d (IPv4-mapped) and 64:ff9b::a.b.c.d (NAT64) reach the embedded v4 address.
  if ((first5Zero && g[5] === 0xffff) || (g[0] === 0x64 && g[1] === 0xff9b && g.slice(2, 6).every((x) => x === 0))) {
    return isDisallowedV4([g[6] >> 8, g[6] & 0xff, g[7] >> 8, g[7] & 0xff]);
  }
  // Allow-list: only global unicast 2000::/3 is public. This alone excludes ::, ::1,
  // ::/96 (deprecated v4-compatible), 100::/64, fc00::/7, fe80::/10, fec0::/10, ff00::/8.
  if ((g[0] & 0xe000) !== 0x2000) return true;
  if (g[0] === 0x2001 && g[1] < 0x200) return true; // 2001::/23 IETF (Teredo, benchmarking, ORCHID)
  if (g[0] === 0x2001 && g[1] === 0x0db8) return true; // documentation
  if (g[0] === 0x2002) return true; // 6to4 (deprecated; tunnels to an arbitrary v4 address)
  if ((g[0] & 0xfff0) === 0x3ff0) return true; // 3fff::/20 documentation
  return false;
}

/** Strict dotted-quad only; URL has already canonicalised the exotic forms. */
function parseIPv4(s: string): number[] | null {
  const m = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(s);
  if (!m) return null;
  const o = m.slice(1).map(Number);
  return o.every((x) => x <= 255) ? o : null;
}

/** Eight 16-bit groups, or null. Handles `::` and a trailing dotted quad. */
function parseIPv6(s: string): number[] | null {
  if (!s.includes(':')) return null;
  let text = s.toLowerCase();
  const lastColon = text.lastIndexOf(':');
  const quad = text.slice(lastColon + 1);
  if (quad.includes('.')) {
    // Rewrite `::ffff:1.2.3.4` as `::ffff:102:304` so only one grammar remains.
    const v4 = parseIPv4(quad);
    if (!v4) return null;
    const hi = ((v4[0] << 8) | v4[1]).toString(16);
    const lo = ((v4[2] << 8) | v4[3]).toString(16);
    text = `${text.slice(0, lastColon + 1)}${hi}:${lo}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const head = parseGroups(halves[0]);
  const rest = halves.length === 2 ? parseGroups(halves[1]) : [];
  if (!head || !rest) return null;
  if (halves.length === 1) return head.length === 8 ? head : null;
  const zeros = 8 - head.length - rest.length;
  if (zeros < 1) return null;
  return [...head, ...new Array<number>(zeros).fill(0), ...rest];
}

function parseGroups(part: string): number[] | null {
  if (part === '') return [];
  const out: number[] = [];
  for (const h of part.split(':')) {
    if (!/^[0-9a-f]{1,4}$/.test(h)) return null;
    out.push(parseInt(h, 16));
  }
  return out;
}
