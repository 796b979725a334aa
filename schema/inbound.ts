import { index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { organizations } from './orgs';

export type InboundSourceProvider = 'instantly' | 'smartlead' | 'emailbison' | 'generic';

// A sending tool's reply webhook into one organization: the tool posts to {base_url}/v1/inbound/{id}.
export const inboundSources = pgTable(
  'inbound_sources',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    provider: text('provider').$type<InboundSourceProvider>().notNull(),
    name: text('name').notNull(),
    // Only the SHA-256 of the secret is kept; the secret is shown once at creation.
    secretHash: text('secret_hash').notNull(),
    secretHint: text('secret_hint').notNull(),
    // A paused source refuses deliveries (the tool keeps retrying them until it is active again).
    status: text('status').$type<'active' | 'paused'>().notNull().default('active'),
    lastReceivedAt: timestamp('last_received_at', { withTimezone: true, mode: 'date' }),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('inbound_sources_org_idx').on(t.orgId, t.createdAt)],
);

// One row per delivered message: the primary key makes a redelivery (the tools retry on any timeout) a no-op,
// and concurrent duplicates wait on it, so one message is ingested once.
export const inboundMessages = pgTable(
  'inbound_messages',
  {
    sourceId: uuid('source_id').notNull().references(() => inboundSources.id, { onDelete: 'cascade' }),
    messageId: text('message_id').notNull(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    replyId: uuid('reply_id'),
    receivedAt: timestamp('received_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.sourceId, t.messageId] })],
);
