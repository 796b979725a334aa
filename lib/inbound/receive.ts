import { ApiError } from '../errors';
import { jsonHasNul } from '../http/nul_guard';
import type { Services } from '../services';
import { adapterFor } from './adapters';
import { countInboundDelivery } from './auth';
import { boundsProblems } from './bounds';
import { ingestDelivery } from './ingest_delivery';
import { authenticateSource } from './sources';

export type DeliveryAnswer = {
  ok: true;
  duplicate: boolean;
  ignored: boolean;
  reason: string | null;
  reply_id: string | null;
  lead_id: string | null;
  classification: string | null;
  campaign_id: string | null;
  opted_out: boolean;
};

const answer = (r: Partial<DeliveryAnswer>): DeliveryAnswer => ({
  ok: true,
  duplicate: false,
  ignored: false,
  reason: null,
  reply_id: null,
  lead_id: null,
  classification: null,
  campaign_id: null,
  opted_out: false,
  ...r,
});

/** The raw body as JSON; a NUL (which no Postgres text can hold) is refused here whatever the content type. */
function parseBody(raw: string): unknown {
  if (jsonHasNul(raw)) throw new ApiError('validation_error', 'body: NUL characters (\\u0000) are not allowed in strings');
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError('validation_error', 'body: not valid JSON');
  }
}

/**
 * One webhook delivery of a sending tool (POST /v1/inbound/{source_id}): the source and its secret, its limit,
 * the provider's adapter, our bounds, then the one ingestion path. A non-reply event is acknowledged, not stored.
 */
export async function receiveDelivery(
  services: Pick<Services, 'db' | 'classify' | 'limits' | 'clock' | 'log'>,
  d: { sourceId: string; secret: string | undefined; rawBody: string; clientIp: string },
): Promise<DeliveryAnswer> {
  const source = await authenticateSource(services.db, d.sourceId, d.secret);
  await countInboundDelivery(services, source, d.clientIp);
  if (!source) throw new ApiError('unauthorized', 'unknown inbound source or wrong secret');

  const parsed = adapterFor(source.provider).parse(parseBody(d.rawBody));
  if (parsed.kind === 'invalid') throw new ApiError('validation_error', parsed.problems.join('; '));
  if (parsed.kind === 'ignored') return answer({ ignored: true, reason: parsed.reason });
  const now = services.clock.now();
  const problems = boundsProblems(parsed.reply, now);
  if (problems.length) throw new ApiError('validation_error', problems.join('; '));

  const r = await ingestDelivery({ db: services.db, classify: services.classify, source, reply: parsed.reply, now });
  return answer({
    duplicate: r.duplicate,
    reason: r.duplicate ? 'this message was delivered before; nothing was stored again' : null,
    reply_id: r.reply_id,
    lead_id: r.lead_id,
    classification: r.classification,
    campaign_id: r.campaign?.id ?? null,
    opted_out: r.opted_out,
  });
}
