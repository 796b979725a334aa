import type { poolLeads } from '../../schema';
import { isUrlText } from './columns';

// The enrichment fields of a pool lead (agency spec §2 "Manual lead enrichment"): update_leads sets them by hand,
// and an import takes them when a table already carries them. One parser so both read a value the same way.

type LeadInsert = typeof poolLeads.$inferInsert;

/** The fixed field name → the row property it sets. `volume_estimate` is the spec's alias of volume_band. */
export const ENRICH_FIELDS = {
  volume_band: 'volumeBand',
  monthly_volume: 'monthlyVolume',
  mail_type: 'mailType',
  current_sender: 'currentSender',
  hook: 'hook',
  named_account: 'namedAccount',
  sends_for_customers: 'sendsForCustomers',
  linkedin_url: 'linkedinUrl',
  note: 'note',
} as const satisfies Record<string, keyof LeadInsert>;

export type EnrichField = keyof typeof ENRICH_FIELDS;
export const ENRICH_FIELD_NAMES = Object.keys(ENRICH_FIELDS) as EnrichField[];
export const isEnrichField = (k: string): k is EnrichField => k in ENRICH_FIELDS;

const TEXT_LIMIT: Record<string, number> = { hook: 2000, note: 5000, mail_type: 100, current_sender: 100, linkedin_url: 500 };
const BANDS = new Set(['high', 'medium', 'low']);

export type Parsed = { ok: true; value: string | number | boolean | null } | { ok: false; problem: string };

function yesNo(v: unknown): boolean | undefined {
  if (typeof v === 'boolean') return v;
  const t = typeof v === 'string' ? v.trim().toLowerCase() : '';
  if (['yes', 'true', 'y', '1'].includes(t)) return true;
  if (['no', 'false', 'n', '0'].includes(t)) return false;
  return undefined;
}

/** One enrichment value as stored, or the problem with it. null clears the field. */
export function parseEnrichValue(field: EnrichField, v: unknown): Parsed {
  if (v === null) return { ok: true, value: null };
  switch (field) {
    case 'volume_band': {
      const t = typeof v === 'string' ? v.trim().toLowerCase() : '';
      return BANDS.has(t) ? { ok: true, value: t } : { ok: false, problem: 'must be high, medium or low' };
    }
    case 'monthly_volume': {
      const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d+$/.test(v.trim().replace(/[,_]/g, '')) ? Number(v.trim().replace(/[,_]/g, '')) : NaN;
      return Number.isInteger(n) && n >= 0 && n <= 2_000_000_000 ? { ok: true, value: n } : { ok: false, problem: 'must be a whole number of mails a month (0 or more)' };
    }
    case 'named_account':
    case 'sends_for_customers': {
      const b = yesNo(v);
      return b === undefined ? { ok: false, problem: 'must be true or false (yes/no)' } : { ok: true, value: b };
    }
    case 'linkedin_url': {
      if (typeof v !== 'string' || !v.trim()) return { ok: false, problem: 'must be a URL' };
      const t = /^[a-z][a-z0-9+.-]*:/i.test(v.trim()) ? v.trim() : `https://${v.trim()}`;
      if (!isUrlText(t) || t.length > TEXT_LIMIT.linkedin_url) return { ok: false, problem: 'must be an http(s) URL of at most 500 characters' };
      return { ok: true, value: t };
    }
    default: {
      if (typeof v !== 'string' && typeof v !== 'number') return { ok: false, problem: 'must be text' };
      const t = String(v).trim();
      const limit = TEXT_LIMIT[field];
      if (t.length > limit) return { ok: false, problem: `must be at most ${limit} characters` };
      // Names of senders and mail types compare as the DNS scan writes them (lower case).
      return { ok: true, value: t === '' ? null : field === 'mail_type' || field === 'current_sender' ? t.toLowerCase() : t };
    }
  }
}
