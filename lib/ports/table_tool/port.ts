// The table-tool port: one lead out to a client's table (a Clay-like tool's webhook source) as one JSON object per
// POST. Production: a real HTTP POST; embedded: a deterministic simulation that records what it would have posted.
import type { Db } from '../../db/types';
import type { Resolver } from '../../net/ssrf';

export type TablePostInput = {
  orgId: string;
  pushId: string;
  leadId: string;
  /** The destination webhook URL (already checked against the SSRF rules when it was stored; checked again here). */
  url: string;
  /** Sent as `Authorization: Bearer <token>` when set. */
  token: string | null;
  body: Record<string, unknown>;
  /** 1 for the first try of this lead; each failed try adds one (a 429 does not: the receiver only asked us to wait). */
  attempt: number;
  /** The previous try of this lead was answered 429. */
  afterThrottle: boolean;
};

export type TablePostResult =
  | { ok: true; status: number; simulated?: true }
  /** 429: retry after `retryAfterSec` (the receiver's Retry-After), or after our own backoff when it sent none. */
  | { ok: false; throttled: true; retryAfterSec: number | null; error: string; simulated?: true }
  | { ok: false; throttled: false; error: string; simulated?: true };

/** What a post needs from the request's services: the database (the simulation writes rows) and DNS for the SSRF check. */
export type TablePostDeps = { db: Db; resolveHost?: Resolver; allowPrivate: boolean };

export interface TableTool {
  readonly kind: 'sim' | 'http';
  /** One POST; never throws for an outcome of the destination (every failure is a result). */
  post(deps: TablePostDeps, input: TablePostInput): Promise<TablePostResult>;
}
