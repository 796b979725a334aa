import { z } from 'zod';
import { utcDay } from '../credits/balance';
import { websiteHost } from '../pool/never_mail';
import type { PoolLeadRow } from '../pool/view';
import type { SignalKind } from '../ports/enrichment/port';

export const SIGNAL_KINDS = ['hiring', 'funding', 'tech_change', 'news'] as const satisfies readonly SignalKind[];

/** Kinds as a JSON list, or from a query string as repeated `kinds=` or one comma list; sorted and unique. */
export const kindsArg = z
  .union([z.array(z.string()), z.string()])
  .transform((v) => (typeof v === 'string' ? v.split(',').map((s) => s.trim()).filter(Boolean) : v))
  .pipe(z.array(z.enum(SIGNAL_KINDS, { message: `each kind must be one of ${SIGNAL_KINDS.join(', ')}` })).min(1).max(SIGNAL_KINDS.length))
  .transform((v) => [...new Set(v)].sort() as SignalKind[]);

export const allKinds = (): SignalKind[] => [...SIGNAL_KINDS].sort();

/** The company domain signals are looked up by: the lead's domain, else its website's host. */
export function signalDomain(lead: Pick<PoolLeadRow, 'domain' | 'website'>): string | null {
  const d = lead.domain?.trim().toLowerCase().replace(/^www\./, '') || websiteHost(lead.website);
  return d && d.includes('.') ? d : null;
}

/**
 * The charge's reference: one credit per lead, per set of kinds, per UTC day (the day the key's credit limit
 * counts in). A second run over the same lead and kinds that day (a re-run, a retried round, two concurrent runs)
 * finds the ledger row and charges nothing; a run on another day, or for other kinds, is new work and is paid.
 */
export const chargeReference = (leadId: string, kinds: readonly SignalKind[], now: Date) => `signals:${leadId}:${[...kinds].sort().join('+')}:${utcDay(now)}`;
