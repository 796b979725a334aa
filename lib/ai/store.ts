// What the suggestion verbs read: whose lessons apply (the client), the lessons themselves, and stored suggestions.
import { and, desc, eq, isNull } from 'drizzle-orm';
import { aiSuggestions, clients, learnedExamples } from '../../schema';
import type { AuthContext } from '../auth/keys';
import { sha256Hex } from '../crypto/secrets';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { tenantFilter, tenantOf } from '../tenancy';
import type { LearnedExample, Medium } from './types';

/** The most recent lessons a suggestion considers: enough variety, bounded work per request. */
export const LEARNED_EXAMPLES_LIMIT = 50;

/**
 * The client whose lessons a call reads or writes. A client-locked key always works for its own client; naming
 * another one is a 404, like a client of another organization: the answer never confirms that a client exists.
 * An organization-wide key works for the client it names, or for the organization as a whole (null).
 */
export async function resolveClient(db: Db, auth: Pick<AuthContext, 'orgId' | 'clientId'>, requested: string | null | undefined): Promise<string | null> {
  if (auth.clientId) {
    if (requested && requested !== auth.clientId) throw notFound('client');
    return auth.clientId;
  }
  if (!requested) return null;
  const [row] = await db.select({ id: clients.id }).from(clients).where(and(eq(clients.id, requested), eq(clients.orgId, auth.orgId)));
  if (!row) throw notFound('client');
  return row.id;
}

/**
 * Lessons of exactly this client (or of the organization as a whole when null) and medium, newest first. One
 * client's edits never reach another client's drafts: they carry that client's offer, prices and voice.
 */
export async function loadLearnedExamples(db: Db, orgId: string, clientId: string | null, medium: Medium): Promise<LearnedExample[]> {
  const rows = await db
    .select({
      replyText: learnedExamples.replyText,
      classification: learnedExamples.classification,
      original: learnedExamples.original,
      edited: learnedExamples.edited,
      medium: learnedExamples.medium,
    })
    .from(learnedExamples)
    .where(
      and(
        eq(learnedExamples.orgId, orgId),
        clientId ? eq(learnedExamples.clientId, clientId) : isNull(learnedExamples.clientId),
        eq(learnedExamples.medium, medium),
      ),
    )
    .orderBy(desc(learnedExamples.createdAt))
    .limit(LEARNED_EXAMPLES_LIMIT);
  return rows.map((r) => ({ ...r, classification: r.classification ?? undefined }));
}

/** Line endings and surrounding blanks are what clients change when they pass a suggestion back. */
export const suggestionSha = (text: string) => sha256Hex(text.replace(/\r\n?/g, '\n').trim());

export type StoredSuggestion = typeof aiSuggestions.$inferSelect;

/** A finished suggestion the caller may see (its organization, and its client for a client-locked key). */
export async function findSuggestion(
  db: Db,
  auth: Pick<AuthContext, 'orgId' | 'clientId'>,
  by: { id: string } | { text: string; medium?: Medium },
): Promise<StoredSuggestion | null> {
  const visible = and(tenantFilter(tenantOf(auth), aiSuggestions.orgId, aiSuggestions.clientId), eq(aiSuggestions.status, 'done'));
  const match =
    'id' in by
      ? eq(aiSuggestions.id, by.id)
      : and(eq(aiSuggestions.suggestionSha, await suggestionSha(by.text)), by.medium ? eq(aiSuggestions.medium, by.medium) : undefined);
  const [row] = await db.select().from(aiSuggestions).where(and(visible, match)).orderBy(desc(aiSuggestions.createdAt)).limit(1);
  return row ?? null;
}
