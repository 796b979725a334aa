// The mailbox-provider port: the domain workspaces mailboxes can be created in, and creating them. Production:
// Google Workspace's Admin SDK Directory API (users.insert); embedded: a deterministic simulation that records the
// mailboxes in sim_mailboxes.
import type { PortDeps } from '../registrar/port';

export type Workspace = { id: string; name: string; provider: string; /** mailboxes it can still take */ seats_left: number | null; simulated?: true };

/** Idempotent by address: creating the same address again answers the mailbox that exists (`repeated: true`). */
export type CreateMailboxInput = {
  orgId: string;
  workspaceId: string;
  address: string;
  firstName: string;
  lastName: string;
};

export type CreateMailboxResult =
  | { ok: true; provider_id: string; /** the password or app password, to be stored encrypted; null when repeated */ credential: string | null; repeated: boolean; simulated?: true }
  | { ok: false; reason: 'no_seats' | 'domain_not_verified' | 'rate_limited' | 'error'; detail: string; retry_after_sec?: number; simulated?: true };

export interface MailboxProvider {
  readonly kind: 'sim' | 'google';
  listWorkspaces(deps: PortDeps, orgId: string): Promise<Workspace[]>;
  createMailbox(deps: PortDeps, input: CreateMailboxInput): Promise<CreateMailboxResult>;
}
