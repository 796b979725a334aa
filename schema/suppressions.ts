import { sql } from 'drizzle-orm';
import { index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clients, organizations } from './orgs';

// Who must never be contacted. One model for the organization's do-not-contact list (opt-outs: client_id null,
// applies to every client) and the agency's per-client never-mail list: an `email` entry blocks that address, a
// `domain` entry blocks every address on it and on its subdomains.
export const suppressions = pgTable(
  'suppressions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<'email' | 'domain'>().notNull(),
    // Lower-cased address or domain (no leading dot).
    value: text('value').notNull(),
    // Why it is there: the prospect opted out in a reply, a person added it, or an import.
    reason: text('reason').$type<'opt_out' | 'manual' | 'import'>().notNull(),
    // The opt-out reply and the phrase that matched, when reason = opt_out.
    replyId: uuid('reply_id'),
    leadId: uuid('lead_id'),
    detail: text('detail'),
    createdBy: text('created_by').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // One entry per value and scope; the all-zero uuid stands for "the whole organization".
    uniqueIndex('suppressions_scope_value_uq').on(t.orgId, sql`coalesce(${t.clientId}, '00000000-0000-0000-0000-000000000000'::uuid)`, t.kind, t.value),
    // The send-time check: "is any of these values listed for this organization?"
    index('suppressions_org_value_idx').on(t.orgId, t.value),
  ],
);
