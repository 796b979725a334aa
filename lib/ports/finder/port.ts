// The email-finder port: who finds a person's work address from their name and company domain, and who verifies
// it. The waterfall (lib/waterfall) asks the providers in order until one finds, then verifies once.
// Production: Hunter's Email Finder/Verifier API; embedded: a deterministic simulation of three providers.

export type FindInput = { first_name: string | null; last_name: string | null; full_name: string | null; domain: string };

/** `error`: the provider failed (5xx, timeout, refused key); `rate_limited`: it asked us to slow down. */
export type FindOutcome = 'found' | 'not_found' | 'error' | 'rate_limited';

export type FindResult = {
  email: string | null;
  /** What the call cost at the provider, in millionths of a US dollar (0 when it charged nothing). */
  cost_micros: number;
  outcome: FindOutcome;
  retry_after_sec?: number;
  /** A short reason for `error` (never the API key). */
  detail?: string;
  simulated?: true;
};

/** `risky`: the mailbox cannot be confirmed (catch-all domain, webmail, unknown): it may bounce. */
export type VerifyStatus = 'valid' | 'risky' | 'invalid';

export type VerifyResult = {
  /** null when the verifier gave no answer (outcome error or rate_limited). */
  status: VerifyStatus | null;
  cost_micros: number;
  outcome: 'verified' | 'error' | 'rate_limited';
  retry_after_sec?: number;
  detail?: string;
  simulated?: true;
};

export interface FinderProvider {
  /** Recorded as the lead's provenance `finder:<name>` and in finder_calls.provider. */
  readonly name: string;
  find(input: FindInput): Promise<FindResult>;
}

export interface EmailVerifier {
  readonly name: string;
  verify(email: string): Promise<VerifyResult>;
}

export interface EmailFinder {
  readonly kind: 'sim' | 'hunter';
  /** Tried in this order; the first that finds wins. */
  readonly providers: readonly FinderProvider[];
  readonly verifier: EmailVerifier;
}
