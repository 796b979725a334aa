import { eq, sql } from 'drizzle-orm';
import { clients, organizations, webUsers } from '../../schema';
import type { Db } from '../db/types';
import { notFound } from '../errors';
import { issueSignInLink } from './links';

export type WebUserKind = 'portal' | 'desk';

export type WebUserView = { id: string; kind: WebUserKind; org_id: string; client_id: string | null; email: string; name: string; created_at: string };

const view = (u: typeof webUsers.$inferSelect): WebUserView => ({
  id: u.id,
  kind: u.kind,
  org_id: u.orgId,
  client_id: u.clientId,
  email: u.email,
  name: u.name,
  created_at: u.createdAt.toISOString(),
});

export type InviteInput = { email: string; name: string };

/**
 * Admin: the user (created on first call, its name refreshed after) and a fresh one-time sign-in link. Each call
 * issues a new link; earlier unused links stay valid until they expire (a second mail must not break the first).
 * `signInBase` is the face's URL (the portal's or the desk's): the link is `${signInBase}/sign-in/${token}`.
 */
export async function inviteWebUser({ db, now, target, input, signInBase }: {
  db: Db;
  now: Date;
  target: { kind: 'portal'; clientId: string } | { kind: 'desk'; orgId: string };
  input: InviteInput;
  signInBase: string;
}): Promise<{ user: WebUserView; sign_in_url: string }> {
  const email = input.email.trim().toLowerCase();
  const name = input.name.trim();
  return db.transaction(async (tx) => {
    let orgId: string;
    let clientId: string | null = null;
    if (target.kind === 'portal') {
      const [client] = await tx.select({ orgId: clients.orgId }).from(clients).where(eq(clients.id, target.clientId));
      if (!client) throw notFound('client');
      orgId = client.orgId;
      clientId = target.clientId;
    } else {
      const [org] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.id, target.orgId));
      if (!org) throw notFound('organization');
      orgId = org.id;
    }
    // Upsert on the partial unique index of the kind: concurrent invitations of one address make one user.
    const conflictTarget = target.kind === 'portal' ? [webUsers.clientId, webUsers.email] : [webUsers.orgId, webUsers.email];
    const [user] = await tx
      .insert(webUsers)
      .values({ kind: target.kind, orgId, clientId, email, name })
      .onConflictDoUpdate({ target: conflictTarget, targetWhere: sql`kind = ${target.kind}`, set: { name } })
      .returning();
    const token = await issueSignInLink(tx, user.id, now);
    return { user: view(user), sign_in_url: `${signInBase}/sign-in/${token}` };
  });
}

