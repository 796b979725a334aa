import { distance } from 'fastest-levenshtein';
import { learnedExamples } from '../../schema';
import type { Db } from '../db/types';

export type EditInfo = { editDistance: number | null; edited: boolean; original: string | null };

/** The edit distance between the suggestion the caller started from and what it sends (null without one). */
export function editInfo(body: string, original: string | null | undefined, edited: boolean | undefined): EditInfo {
  if (original == null) return { editDistance: null, edited: false, original: null };
  return { editDistance: distance(original, body), edited: edited === true, original };
}

/**
 * core §4 rule 3: an edited suggestion that is actually sent teaches the assistant. The example is kept per
 * client and medium (the AI issue reads `learned_examples`); a draft that is rejected teaches nothing, so this
 * runs when the reply is sent, not when it is queued. An "edit" that changed nothing is not a lesson.
 */
export async function learnFromSend(
  tx: Db,
  e: { orgId: string; clientId: string | null; replyText: string; classification: string | null; sent: string; info: EditInfo; now: Date },
): Promise<boolean> {
  if (!e.info.edited || e.info.original === null || !e.info.editDistance) return false;
  await tx.insert(learnedExamples).values({
    orgId: e.orgId,
    clientId: e.clientId,
    medium: 'email',
    replyText: e.replyText,
    classification: e.classification,
    original: e.info.original,
    edited: e.sent,
    // The suggestion was used, with edits: the edited text is what the human stood behind.
    accepted: true,
    createdAt: e.now,
  });
  return true;
}
