import type { Db } from '../db/types';

// The sending-provider port. One organization sends through one provider, configured by its owner
// (sending_providers row; no row = outbox): `outbox` records the message and sends nothing (embedded default),
// `http` POSTs it, signed, to the organization's own sending service.

export type OutgoingMessage = { orgId: string; replyId: string; toEmail: string; body: string };

export type ProviderResult = { ok: true } | { ok: false; error: string };

export interface MailProvider {
  readonly kind: 'outbox' | 'http';
  /**
   * True when the "send" is a row written with the caller's transaction: it rolls back with it, so a send whose
   * transaction fails contacted nobody. An http call cannot be taken back once made.
   */
  readonly transactional: boolean;
  /** Never throws for a provider-side failure (non-2xx, network, timeout, refused URL): that is `ok: false`. */
  send(tx: Db, message: OutgoingMessage, now: Date): Promise<ProviderResult>;
}
