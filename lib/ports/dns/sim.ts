import { sha256Hex } from '../../crypto/secrets';
import { isDomainName, mailTypeOf, senderOf, spfOf } from './classify';
import type { DnsPort, MailScan } from './port';

// The embedded DNS (agency-operator.md §6): every domain gets MX and SPF records chosen by SHA-256 of the seed and
// the domain, read by the same classification as DNS-over-HTTPS answers. `fail-…` domains fail their lookup
// (absent from the map, as a timeout would be); `slow-…` domains answer after a short delay.

export const SIM_SLOW_MS = 40;

const MX_PLANS: ((d: string) => string[])[] = [
  () => ['aspmx.l.google.com', 'alt1.aspmx.l.google.com'],
  (d) => [`${d.replace(/\./g, '-')}.mail.protection.outlook.com`],
  (d) => [`mx1.${d}`, `mx2.${d}`],
  () => [],
];
const SPF_INCLUDES = ['_spf.google.com', 'spf.protection.outlook.com', 'sendgrid.net', 'mailgun.org', 'amazonses.com', 'servers.mcsv.net', 'spf.mtasv.net', null];

async function simulate(seed: string, domain: string): Promise<MailScan> {
  const h = await sha256Hex(`${seed}:dns:${domain}`);
  const a = parseInt(h.slice(0, 4), 16) % 100;
  const b = parseInt(h.slice(4, 8), 16) % 100;
  // About 45 % Google, 35 % Microsoft, 15 % own or other hosting, 5 % no mail at all.
  const plan = a < 45 ? 0 : a < 80 ? 1 : a < 95 ? 2 : 3;
  const mx = MX_PLANS[plan](domain);
  // Mostly the host's own SPF; now and then a bulk sender is included first (what an agency wants to know).
  const own = plan === 0 ? '_spf.google.com' : plan === 1 ? 'spf.protection.outlook.com' : null;
  const extra = SPF_INCLUDES[b % SPF_INCLUDES.length];
  const includes = b < 70 ? [own] : [extra, own];
  const terms = includes.filter((x): x is string => Boolean(x)).map((x) => `include:${x}`);
  const spf = plan === 3 && b < 50 ? null : `v=spf1 ${terms.join(' ')}${terms.length ? ' ' : ''}~all`;
  const txt = spf ? [spf, `sim-verification=${h.slice(8, 24)}`] : [];
  const found = spfOf(txt);
  return { domain, mail_type: mailTypeOf(mx), current_sender: senderOf(found), mx, spf: found, simulated: true };
}

export function createSimDns(opts: { seed: string }): DnsPort {
  return {
    kind: 'sim',
    async scan(domains) {
      const wanted = [...new Set(domains.map((d) => d.trim().toLowerCase().replace(/\.$/, '')))].filter(isDomainName);
      const out = new Map<string, MailScan>();
      if (wanted.some((d) => d.startsWith('slow-'))) await new Promise((r) => setTimeout(r, SIM_SLOW_MS));
      for (const d of wanted) {
        if (d.startsWith('fail-')) continue;
        out.set(d, await simulate(opts.seed, d));
      }
      return out;
    },
  };
}
