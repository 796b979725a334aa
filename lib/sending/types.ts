import type { AuthContext } from '../auth/keys';
import type { ApiError } from '../errors';
import type { ProviderDeps } from '../mail/provider';
import type { Services } from '../services';

/** What the governed-send verbs need from the services: the database, the limits and the provider settings. */
export type SendDeps = Pick<Services, 'db' | 'limits' | 'clock' | 'log'> & ProviderDeps;

/**
 * Who acts: an API key (REST and MCP) or, for queue consumers such as follow-ups, the key that planned the step.
 * Its autonomy level decides between sending at once and queueing for review.
 */
export type SendActor = Pick<AuthContext, 'orgId' | 'clientId' | 'keyId' | 'keyName' | 'autonomyLevel'>;

export type SendInput = { body: string; original_suggestion?: string; edited?: boolean };

export type SentResult = {
  status: 'sent';
  reply_id: string;
  sent: true;
  to_email: string;
  learned: boolean;
  sent_at: string;
};

export type QueuedReason = 'no_active_autonomy_grant' | 'review_required_at_autonomy_level_1' | 'draft_pending_review';

export type QueuedResult = {
  status: 'queued_for_review';
  reply_id: string;
  reason: QueuedReason;
  suggestion_id: string;
  replaced: boolean;
};

/**
 * A refusal decided inside a transaction whose Decision Trail row must still commit: the transaction returns
 * it instead of throwing (which would roll the row back), and the verb throws it after the commit.
 */
export type Refused = { refused: ApiError };
export const isRefused = (r: unknown): r is Refused => typeof r === 'object' && r !== null && 'refused' in r;

/** Key identity for Decision Trail details. */
export const keyDetail = (a: SendActor) => ({ key_id: a.keyId, key_name: a.keyName });
