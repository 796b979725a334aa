import { ApiError } from '../errors';
import type { Limits } from '../limits/port';

// core §8: 5 sends per key per minute (level 2+ sends and approvals); one contact per lead per 15 minutes,
// whatever key sends. Both live in the limits port (Upstash in production), never in an isolate's memory.
export const SENDS_PER_MINUTE = 5;
export const SEND_WINDOW_SEC = 60;
export const LEAD_COOLDOWN_SEC = 15 * 60;

export const leadCooldownKey = (leadId: string) => `lead:${leadId}`;

export type SendClaim = { ok: true; release: () => Promise<void> } | { ok: false; error: ApiError; limit: 'send_rate' | 'lead_cooldown'; retryAfterSec: number };

/**
 * Counts one send for the key, then takes the lead's cooldown. The rate is checked first so that a key over its
 * rate never holds a lead's cooldown; a send refused by the cooldown still counts against the key's rate.
 * `release` gives the cooldown back when the provider fails (that was not a contact).
 */
export async function claimSend(limits: Limits, keyId: string, leadId: string): Promise<SendClaim> {
  const [rate] = await limits.check([{ name: 'send', id: keyId, limit: SENDS_PER_MINUTE, windowSec: SEND_WINDOW_SEC }]);
  if (!rate.success) {
    return {
      ok: false,
      limit: 'send_rate',
      retryAfterSec: SEND_WINDOW_SEC,
      error: new ApiError('send_rate_limit_exceeded', `this key may send at most ${SENDS_PER_MINUTE} replies per minute`, { retryAfter: SEND_WINDOW_SEC }),
    };
  }
  const key = leadCooldownKey(leadId);
  const cooldown = await limits.claimCooldown(key, LEAD_COOLDOWN_SEC);
  if (!cooldown.ok) {
    return {
      ok: false,
      limit: 'lead_cooldown',
      retryAfterSec: cooldown.retryAfterSec,
      error: new ApiError(
        'lead_recently_contacted',
        `this lead was contacted within the last 15 minutes; the next contact is possible in ${cooldown.retryAfterSec} s`,
        { retryAfter: LEAD_COOLDOWN_SEC, facts: { nextContactInSec: cooldown.retryAfterSec } },
      ),
    };
  }
  return { ok: true, release: () => limits.releaseCooldown(key) };
}
