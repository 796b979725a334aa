import type { QueuingKey } from '../../../lib/desk/queue';

export const when = (d: Date) => d.toISOString().slice(0, 16).replace('T', ' ') + ' UTC';

// The queue reasons of lib/sending/send_reply.ts, as a reviewer reads them.
const REASONS: Record<string, string> = {
  no_active_autonomy_grant: 'The key that wrote it may not send on its own (autonomy level 0).',
  review_required_at_autonomy_level_1: 'Autonomy level 1: every draft of this key needs a person’s approval.',
  draft_pending_review: 'A draft was already waiting for review, so this one replaced it.',
};
export const reasonText = (reason: string) => REASONS[reason] ?? reason.replace(/_/g, ' ');

export const keyText = (key: QueuingKey) => (key ? `${key.name}, autonomy level ${key.autonomyLevel}` : 'The key that queued it was deleted: its autonomy level is unknown.');

export const signedIn = (s: { user: { name: string }; csrfToken: string }) => ({ name: s.user.name, csrfToken: s.csrfToken });
