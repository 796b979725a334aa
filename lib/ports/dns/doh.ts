import { isDomainName, mailTypeOf, senderOf, spfOf } from './classify';
import type { DnsPort, MailScan } from './port';

// DNS over HTTPS, JSON flavour (Cloudflare's and Google's `application/dns-json` API): GET `?name=&type=` answers
// `{ Status, Answer: [{ name, type, TTL, data }] }`. Workers have no resolver, so this is production's DNS.
// Every request is bounded and so is the whole scan: an import waits a few seconds at most, and a domain whose
// lookup failed or ran out of time is left out (the lead keeps no scan).

export type DohOptions = {
  url: string;
  fetch?: typeof fetch;
  /** One request's limit. */
  timeoutMs?: number;
  /** The whole scan's limit: domains not answered by then are left out. */
  deadlineMs?: number;
  /** Domains looked up at once. */
  concurrency?: number;
};

const TYPE = { MX: 15, TXT: 16 } as const;
type Answer = { name?: string; type?: number; data?: string };

/** TXT data as the two services write it: Cloudflare quotes (and splits long strings), Google may not. */
export function txtText(data: string): string {
  const t = data.trim();
  if (!t.startsWith('"')) return t;
  const parts = [...t.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => m[1].replace(/\\(.)/g, '$1'));
  // RFC 7208 §3.3: the strings of one TXT record are joined without spaces.
  return parts.join('');
}

export function createDohDns(opts: DohOptions): DnsPort {
  const doFetch = opts.fetch ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const timeoutMs = opts.timeoutMs ?? 2500;
  const deadlineMs = opts.deadlineMs ?? 8000;
  const concurrency = opts.concurrency ?? 8;

  /** The records' data of one type, [] when the name has none (NXDOMAIN included), null when the lookup failed. */
  async function query(name: string, type: keyof typeof TYPE, deadline: number): Promise<string[] | null> {
    const left = Math.min(timeoutMs, deadline - Date.now());
    if (left <= 0) return null;
    const url = new URL(opts.url);
    url.searchParams.set('name', name);
    url.searchParams.set('type', type);
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), left);
    try {
      const res = await doFetch(url.href, { method: 'GET', headers: { accept: 'application/dns-json' }, signal: ctl.signal, redirect: 'manual' });
      if (res.status !== 200) return null;
      const body = (await res.json()) as { Status?: number; Answer?: Answer[] };
      // 3 = NXDOMAIN: the name does not exist, so it has no records; any other non-zero status is a failure.
      if (body.Status === 3) return [];
      if (body.Status !== 0) return null;
      return (body.Answer ?? []).filter((a) => a.type === TYPE[type] && typeof a.data === 'string').map((a) => a.data!);
    } catch {
      return null;
    } finally {
      clearTimeout(timer);
    }
  }

  async function scanOne(domain: string, deadline: number): Promise<MailScan | null> {
    const [mxData, txtData] = await Promise.all([query(domain, 'MX', deadline), query(domain, 'TXT', deadline)]);
    if (mxData === null) return null;
    // "10 aspmx.l.google.com." → aspmx.l.google.com; a null MX ("0 .") leaves an empty host, which means none.
    const mx = mxData
      .map((d) => d.trim().split(/\s+/))
      .sort((a, b) => Number(a[0]) - Number(b[0]))
      .map((p) => (p[1] ?? '').toLowerCase().replace(/\.$/, ''))
      .filter(Boolean);
    // Without its TXT answer the mail type still holds; the sender stays unknown.
    const spf = txtData === null ? null : spfOf(txtData.map(txtText));
    return { domain, mail_type: mailTypeOf(mx), current_sender: senderOf(spf), mx, spf };
  }

  return {
    kind: 'doh',
    async scan(domains) {
      const wanted = [...new Set(domains.map((d) => d.trim().toLowerCase().replace(/\.$/, '')))].filter(isDomainName);
      const out = new Map<string, MailScan>();
      const deadline = Date.now() + deadlineMs;
      let next = 0;
      const worker = async () => {
        while (next < wanted.length && Date.now() < deadline) {
          const d = wanted[next++];
          const scan = await scanOne(d, deadline);
          if (scan) out.set(d, scan);
        }
      };
      await Promise.all(Array.from({ length: Math.min(concurrency, wanted.length) }, worker));
      return out;
    },
  };
}
