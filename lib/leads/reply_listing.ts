import { resolveClient } from '../ai/store';
import type { AuthContext } from '../auth/keys';
import { scopeRefusal, type Scope } from '../auth/scopes';
import type { Db } from '../db/types';
import { ApiError } from '../errors';
import { paginationMeta } from '../http/openapi';
import { listReviewQueue } from '../sending/review_queue';
import { tenantOf } from '../tenancy';
import { listReplies, type ReplyStatus } from './list_replies';

// GET /v1/replies as both faces answer it: the core route (functions/leads/list_replies.ts) and the
// list_pending_replies tool call listRepliesAnswer, so a key gets the same refusal and the same JSON through either.
// One path, two listings (core §4/§5, operator §4): `status=queued` (alias `in_review`) is the review queue and needs
// replies.approve; any other listing of replies is a read (leads.read).

export const LISTING_STATUSES = ['unanswered', 'queued', 'in_review', 'sent', 'skipped'] as const;
export type ListingStatus = (typeof LISTING_STATUSES)[number];

const QUEUE = new Set<string>(['queued', 'in_review']);
export const isReviewQueue = (status: string | undefined) => status !== undefined && QUEUE.has(status);
export const listingScope = (status: string | undefined): Scope => (isReviewQueue(status) ? 'replies.approve' : 'leads.read');

/**
 * The scope the listing asked for, with requireScope's refusals (lib/http/auth.ts): the route runs it before
 * validation on the raw status, the tool after its own gate; an unknown status needs leads.read (then is a 400).
 */
export function requireListingScope(auth: Pick<AuthContext, 'scopes' | 'readOnly'>, status: string | undefined) {
  const scope = listingScope(status);
  const refusal = scopeRefusal(auth, scope);
  if (refusal === 'read_only') throw new ApiError('insufficient_scope', `this key is read-only: it may not use the ${scope} scope, which changes data`);
  if (refusal) throw new ApiError('insufficient_scope', `this key lacks the ${scope} scope`);
}

export type ReplyListingQuery = {
  status?: ListingStatus;
  /** One client's replies; another organization's client (or, for a client-locked key, another client) is 404. */
  client_id?: string;
  campaign_id?: string;
  /** ISO 8601 date-time: replies received after it. */
  since?: string;
  limit: number;
  offset: number;
};

/** The reply list or the review queue, paged, with the pagination fields merged in. */
export async function listRepliesAnswer({ db, auth, query }: { db: Db; auth: AuthContext; query: ReplyListingQuery }) {
  requireListingScope(auth, query.status);
  const tenant = tenantOf(auth);
  const { limit, offset } = query;
  if (isReviewQueue(query.status)) {
    // The queue is worked oldest first in full; it has no reply filters (refused rather than silently ignored).
    for (const name of ['campaign_id', 'since'] as const) {
      if (query[name] !== undefined) throw new ApiError('validation_error', `${name}: not available for the review queue (status=${query.status})`);
    }
  }
  // A named client must be the caller's: the answer never confirms that another organization's client exists.
  const clientId = query.client_id !== undefined ? ((await resolveClient(db, auth, query.client_id)) ?? undefined) : undefined;
  const { items, total } = isReviewQueue(query.status)
    ? await listReviewQueue({ db, tenant, clientId, limit, offset })
    : await listReplies({
        db,
        tenant,
        input: { status: query.status as ReplyStatus | undefined, campaignId: query.campaign_id, clientId, since: query.since ? new Date(query.since) : undefined, limit, offset },
      });
  return { replies: items, ...paginationMeta(items.length, total, limit, offset) };
}
