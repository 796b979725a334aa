// The simulated finder chain (agency-operator.md §6): three providers and a verifier whose answers are a function of
// SHA-256 of the input and SIM_SEED, never of chance, so a test, a demo and a developer see the same waterfall.
//
// Per domain (a company has one address convention): the pattern (first.last@, flast@, f.last@, first@, …) and
// whether it is catch-all (its addresses verify `risky`). Per person at that domain: which provider finds the
// address (alpha ~45 %, beta ~20 %, gamma ~15 %, nobody ~20 %) and whether the mailbox is gone (`invalid`, ~8 %).
// Fault injection by domain name: `fail-…` makes every provider fail (`error`); `slow-…` makes the first provider
// answer `rate_limited` with a Retry-After, and the waterfall goes on to the next.
import type { EmailFinder, FindInput, FindResult, FinderProvider, VerifyResult } from './port';

export const SIM_PROVIDERS = ['sim-alpha', 'sim-beta', 'sim-gamma'] as const;

/** Cost per call in millionths of a dollar: alpha and gamma charge when they find, beta for every search. */
const COST = { 'sim-alpha': { found: 10_000, miss: 0 }, 'sim-beta': { found: 15_000, miss: 15_000 }, 'sim-gamma': { found: 20_000, miss: 0 }, verify: 3_000 };
export const SIM_RETRY_AFTER_SEC = 30;

const PATTERNS = ['first.last', 'flast', 'f.last', 'first', 'firstlast', 'first_last', 'last.first', 'lastf'] as const;
type Pattern = (typeof PATTERNS)[number];

async function digest(seed: string, ...parts: string[]): Promise<Uint8Array> {
  const data = new TextEncoder().encode([seed, ...parts].join('\u0000'));
  return new Uint8Array(await crypto.subtle.digest('SHA-256', data));
}
/** A number in 0..9999 from two bytes of a digest. */
const bucket = (h: Uint8Array, at: number) => ((h[at] << 8) | h[at + 1]) % 10_000;

/** Lower-case a–z only ("José-María" → "josemaria"), as address local parts are usually written. */
export function localName(raw: string | null | undefined): string {
  return (raw ?? '')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z]/g, '');
}

/** First and last name from the fields, or split from the full name (first word, last word). */
export function nameParts(input: Pick<FindInput, 'first_name' | 'last_name' | 'full_name'>): { first: string; last: string } | null {
  let first = localName(input.first_name);
  let last = localName(input.last_name);
  if ((!first || !last) && input.full_name) {
    const words = input.full_name.trim().split(/\s+/).filter(Boolean);
    if (words.length >= 2) {
      first ||= localName(words[0]);
      last ||= localName(words[words.length - 1]);
    }
  }
  return first && last ? { first, last } : null;
}

function addressOf(pattern: Pattern, first: string, last: string, domain: string): string {
  const local = {
    'first.last': `${first}.${last}`,
    flast: `${first[0]}${last}`,
    'f.last': `${first[0]}.${last}`,
    first,
    firstlast: `${first}${last}`,
    first_last: `${first}_${last}`,
    'last.first': `${last}.${first}`,
    lastf: `${last}${first[0]}`,
  }[pattern];
  return `${local}@${domain}`;
}

export type SimTruth = { email: string | null; finder: (typeof SIM_PROVIDERS)[number] | null; catchAll: boolean; invalid: boolean; pattern: Pattern };

/** What the simulated world holds for this person: their address, who can find it, how it verifies. */
export async function simTruth(seed: string, input: FindInput): Promise<SimTruth> {
  const domain = input.domain.trim().toLowerCase();
  const d = await digest(seed, 'finder-domain', domain);
  const pattern = PATTERNS[d[0] % PATTERNS.length];
  const catchAll = bucket(d, 1) < 1_500;
  const name = nameParts(input);
  if (!name) return { email: null, finder: null, catchAll, invalid: false, pattern };
  const p = await digest(seed, 'finder-person', domain, name.first, name.last);
  const who = bucket(p, 0);
  const finder = who < 4_500 ? 'sim-alpha' : who < 6_500 ? 'sim-beta' : who < 8_000 ? 'sim-gamma' : null;
  const email = addressOf(pattern, name.first, name.last, domain);
  return { email, finder, catchAll, invalid: !catchAll && (await mailboxGone(seed, email)), pattern };
}

function simProvider(seed: string, name: (typeof SIM_PROVIDERS)[number], index: number): FinderProvider {
  return {
    name,
    async find(input): Promise<FindResult> {
      const domain = input.domain.trim().toLowerCase();
      if (domain.startsWith('fail-')) return { email: null, cost_micros: 0, outcome: 'error', detail: `${name}: simulated provider failure (fail- domain)`, simulated: true };
      if (domain.startsWith('slow-') && index === 0) return { email: null, cost_micros: 0, outcome: 'rate_limited', retry_after_sec: SIM_RETRY_AFTER_SEC, simulated: true };
      const truth = await simTruth(seed, input);
      const cost = COST[name];
      if (truth.finder === name && truth.email) return { email: truth.email, cost_micros: cost.found, outcome: 'found', simulated: true };
      return { email: null, cost_micros: cost.miss, outcome: 'not_found', simulated: true };
    },
  };
}

/** About 8 % of addresses that follow the pattern no longer exist (the person left). */
async function mailboxGone(seed: string, email: string) {
  return bucket(await digest(seed, 'verify-mailbox', email.toLowerCase()), 0) < 800;
}

/** The verifier needs only the address: its domain decides catch-all, the person's hash decides a dead mailbox. */
async function simVerify(seed: string, email: string): Promise<VerifyResult> {
  const at = email.lastIndexOf('@');
  const domain = email.slice(at + 1).toLowerCase();
  if (at < 1 || !domain.includes('.')) return { status: 'invalid', cost_micros: COST.verify, outcome: 'verified', simulated: true };
  if (domain.startsWith('fail-')) return { status: null, cost_micros: 0, outcome: 'error', detail: 'sim-verify: simulated failure (fail- domain)', simulated: true };
  const d = await digest(seed, 'finder-domain', domain);
  if (bucket(d, 1) < 1_500) return { status: 'risky', cost_micros: COST.verify, outcome: 'verified', simulated: true };
  return { status: (await mailboxGone(seed, email)) ? 'invalid' : 'valid', cost_micros: COST.verify, outcome: 'verified', simulated: true };
}

export function createSimFinder(seed: string): EmailFinder {
  return {
    kind: 'sim',
    providers: SIM_PROVIDERS.map((name, i) => simProvider(seed, name, i)),
    verifier: { name: 'sim-verify', verify: (email) => simVerify(seed, email) },
  };
}
