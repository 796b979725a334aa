import { boolean, date, index, integer, pgTable, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { apiKeys, clients, organizations } from './orgs';

/**
 * One row per POST /v1/suggest. The row is also the credit hold: it is inserted `pending` by the same statement
 * that counts the credit in `credit_usage`, becomes `done` in the transaction that writes `assistant.suggested`,
 * or `failed` / `expired` when the credit is given back (model error or timeout; a request that died mid-call).
 * Feedback finds the reply text it learns from here, by `suggestion_id` or by the suggestion's text.
 */
export const aiSuggestions = pgTable(
  'ai_suggestions',
  {
    id: text('id').primaryKey(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    keyId: uuid('key_id').notNull().references(() => apiKeys.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    status: text('status').$type<'pending' | 'done' | 'failed' | 'expired'>().notNull(),
    /** The UTC day whose credit this suggestion holds or spent (a refund goes back to that day). */
    creditDay: date('credit_day', { mode: 'string' }).notNull(),
    medium: text('medium').notNull(),
    replyText: text('reply_text').notNull(),
    leadEmail: text('lead_email'),
    suggestion: text('suggestion'),
    /** sha256 of `suggestion`: feedback without a suggestion_id finds the suggestion by its text. */
    suggestionSha: text('suggestion_sha'),
    strategy: text('strategy'),
    model: text('model'),
    confidence: real('confidence'),
    accepted: boolean('accepted'),
    editDistance: integer('edit_distance'),
    feedbackAt: timestamp('feedback_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('ai_suggestions_holds_idx').on(t.keyId, t.creditDay, t.status),
    index('ai_suggestions_text_idx').on(t.orgId, t.suggestionSha),
  ],
);
