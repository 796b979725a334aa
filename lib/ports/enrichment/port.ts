// The enrichment port: company facts, hiring (vacancy search), and signals (hiring, funding, tech changes, news)
// for a lead's company domain. Production: PredictLeads' documented API; embedded: a deterministic simulation from
// the domain's hash and bundled word lists (agency-operator.md §6). Every call is logged in `enrichment_calls`.
import type { Db } from '../../db/types';

export type HiringRole = 'sales' | 'marketing' | 'technical' | 'operations' | 'customer_success' | 'custom' | 'default';
export type SignalKind = 'hiring' | 'funding' | 'tech_change' | 'news';

export type CompanyFacts = {
  domain: string;
  name?: string | null;
  industry?: string | null;
  employees?: number | null;
  founded_year?: number | null;
  country?: string | null;
  technologies?: string[];
  description?: string | null;
};

export type Vacancy = { title: string; role: HiringRole; url?: string | null; posted_on?: string | null };
export type Signal = { kind: SignalKind; title: string; happened_on: string | null; source: string; detail?: Record<string, unknown> };

/** Who pays and is logged: the calls of one organization, written to its `enrichment_calls` rows. */
export type EnrichmentContext = { db: Db; orgId: string; now: Date };

/** A provider refusal that should be retried later (429/5xx); other failures are results with `outcome: error`. */
export class EnrichmentRetryLater extends Error {
  constructor(readonly retryAfterSec: number, message = 'the enrichment provider asked to retry later') {
    super(message);
  }
}

export interface EnrichmentPort {
  readonly kind: 'sim' | 'predictleads';
  /** Company facts for a domain; null when the provider knows nothing of it (an empty result costs nothing). */
  company(ctx: EnrichmentContext, domain: string): Promise<CompanyFacts | null>;
  /** Open vacancies at the domain's company for a role (`custom` matches `customRole` in titles; `default` = any). */
  vacancies(ctx: EnrichmentContext, domain: string, role: HiringRole, customRole?: string): Promise<Vacancy[]>;
  /** Recent signals of the given kinds (newest first). */
  signals(ctx: EnrichmentContext, domain: string, kinds: readonly SignalKind[]): Promise<Signal[]>;
}
