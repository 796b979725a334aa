import { sql } from 'drizzle-orm';
import { check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { clients, organizations } from './orgs';

// The people who use the pages (issue 19): `portal` users belong to one client of an organization, `desk` users to
// the organization itself. One table, so sign-in links and sessions serve both faces with one implementation.
export const webUsers = pgTable(
  'web_users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').$type<'portal' | 'desk'>().notNull(),
    orgId: uuid('org_id').notNull().references(() => organizations.id, { onDelete: 'cascade' }),
    clientId: uuid('client_id').references(() => clients.id, { onDelete: 'cascade' }),
    email: text('email').notNull(),
    name: text('name').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    // A portal user is one address per client; a desk user one address per organization.
    uniqueIndex('web_users_portal_email_uq').on(t.clientId, t.email).where(sql`kind = 'portal'`),
    uniqueIndex('web_users_desk_email_uq').on(t.orgId, t.email).where(sql`kind = 'desk'`),
    check('web_users_kind_client_ck', sql`(kind = 'portal' and client_id is not null) or (kind = 'desk' and client_id is null)`),
  ],
);

// One-time sign-in links: only the SHA-256 of the token is kept, so a leaked table opens no session.
export const signInLinks = pgTable(
  'sign_in_links',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => webUsers.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('sign_in_links_token_uq').on(t.tokenHash), index('sign_in_links_user_idx').on(t.userId)],
);

// Browser sessions: the cookie carries a random id, the table its SHA-256 and the per-session CSRF token.
export const webSessions = pgTable(
  'web_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id').notNull().references(() => webUsers.id, { onDelete: 'cascade' }),
    idHash: text('id_hash').notNull(),
    csrfToken: text('csrf_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
  },
  (t) => [uniqueIndex('web_sessions_id_hash_uq').on(t.idHash), index('web_sessions_user_idx').on(t.userId)],
);
