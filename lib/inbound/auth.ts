import { ApiError } from '../errors';
import type { Clock, LimitResult, Limits } from '../limits/port';
import { errorText, type Logger } from '../log';
import type { InboundSource } from './sources';

/** Deliveries per source and minute: well above a sending tool's reply bursts, a ceiling for a runaway retry loop. */
export const INBOUND_PER_SOURCE_PER_MINUTE = 1200;
/** Refused deliveries (unknown source, wrong secret) per address and minute: secret guessing stays slow. */
const FAILED_PER_IP_PER_MINUTE = 120;

/** The source secret: `x-inbound-secret`, `Authorization: Bearer`, or `?token=` for tools that cannot set headers. */
export function presentedInboundSecret(read: { header(name: string): string | undefined; query(name: string): string | undefined }): string | undefined {
  const header = read.header('x-inbound-secret')?.trim();
  if (header) return header;
  const bearer = /^Bearer\s+(.+)$/i.exec(read.header('authorization') ?? '')?.[1]?.trim();
  if (bearer) return bearer;
  return read.query('token')?.trim() || undefined;
}

/**
 * Counts the delivery against the source's limit, or against the caller's address when it was refused (so
 * guessing secrets is limited like any unauthenticated call). Fails open when the limits store is down: a
 * sending tool's replies must not be lost because Redis is.
 */
export async function countInboundDelivery(deps: { limits: Limits; clock: Clock; log: Logger }, source: InboundSource | null, clientIp: string) {
  const check = source
    ? { name: 'inbound', id: source.id, limit: INBOUND_PER_SOURCE_PER_MINUTE, windowSec: 60 }
    : { name: 'ip', id: clientIp, limit: FAILED_PER_IP_PER_MINUTE, windowSec: 60 };
  let counted: LimitResult[];
  try {
    counted = await deps.limits.check([check]);
  } catch (err) {
    deps.log.warn('inbound limits unavailable; failing open', { error: errorText(err) });
    return;
  }
  const [r] = counted;
  if (r.success) return;
  const retryAfter = Math.max(1, Math.ceil((r.reset - deps.clock.now().getTime()) / 1000));
  if (source) throw new ApiError('rate_limit_exceeded', `more than ${check.limit} deliveries per minute for this inbound source`, { retryAfter });
  throw new ApiError('ip_rate_limit_exceeded', 'too many requests from this address', { retryAfter });
}
