// POST /v1/suggest/feedback as a verb: free, and the way the assistant learns how this client's team writes.
import { eq } from 'drizzle-orm';
import { distance } from 'fastest-levenshtein';
import { aiSuggestions, learnedExamples } from '../../schema';
import type { AuthContext } from '../auth/keys';
import { classifyOffline } from '../classify/offline';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';
import { findSuggestion, resolveClient, type StoredSuggestion } from './store';
import type { Medium } from './types';

export type FeedbackInput = {
  accepted: boolean;
  original_suggestion?: string | null;
  edited_version?: string | null;
  medium?: Medium | null;
  client_id?: string | null;
  suggestion_id?: string | null;
};

export type FeedbackResult = { received: true; learned: boolean; medium: Medium; edit_distance: number };

/**
 * Records what the human did with a suggestion. `edit_distance` is the Levenshtein distance from the original
 * suggestion (given, or the stored one for `suggestion_id`) to `edited_version`; 0 when nothing was edited.
 * `learned` is true when an edited version that differs was stored as a lesson for (client, medium). A lesson
 * needs the reply the suggestion answered, so it needs the stored suggestion: by `suggestion_id`, or found by
 * the exact text of `original_suggestion`. An unknown `suggestion_id` is a 404 (so is another tenant's).
 */
export async function recordFeedback({ db, auth, input, now }: { db: Db; auth: AuthContext; input: FeedbackInput; now: Date }): Promise<FeedbackResult> {
  let stored: StoredSuggestion | null = null;
  if (input.suggestion_id) {
    stored = await findSuggestion(db, auth, { id: input.suggestion_id });
    if (!stored) throw notFound('suggestion');
  } else if (input.original_suggestion?.trim()) {
    stored = await findSuggestion(db, auth, { text: input.original_suggestion, medium: input.medium ?? undefined });
  }
  if (stored && input.medium && input.medium !== stored.medium) {
    throw new ApiError('validation_error', `medium: the suggestion was written for ${stored.medium}, not ${input.medium}`);
  }
  const medium = (input.medium ?? stored?.medium ?? 'email') as Medium;
  // The client named wins; else the suggestion's own; a client-locked key can only ever mean its own client.
  const clientId = input.client_id ? await resolveClient(db, auth, input.client_id) : (stored?.clientId ?? auth.clientId);

  const original = input.original_suggestion ?? stored?.suggestion ?? null;
  const edited = input.edited_version?.trim() ? input.edited_version : null;
  const editDistance = original !== null && edited !== null ? distance(original, edited) : 0;
  const lesson = stored !== null && original !== null && edited !== null && editDistance > 0;

  await db.transaction(async (tx) => {
    if (lesson) {
      await tx.insert(learnedExamples).values({
        orgId: auth.orgId,
        clientId,
        medium,
        replyText: stored!.replyText,
        classification: classifyOffline(stored!.replyText).classification,
        original: original!,
        edited: edited!,
        accepted: input.accepted,
        createdAt: now,
      });
    }
    if (stored) {
      await tx.update(aiSuggestions).set({ accepted: input.accepted, editDistance, feedbackAt: now }).where(eq(aiSuggestions.id, stored.id));
    }
  });
  return { received: true, learned: lesson, medium, edit_distance: editDistance };
}
