import { z } from 'zod';
import type { Group } from '../../lib/http/env';
import { ApiError } from '../../lib/errors';
import { JOBS_PATH, qstashConfigured, verifyQStashSignature } from '../../lib/queue/qstash';
import { errorText } from '../../lib/log';
import { runHandler } from '../../lib/queue/run';
import { DISPATCH_JOB } from '../../lib/webhooks/jobs';
import { jobHandlers } from './handlers';

const Envelope = z.object({ kind: z.string().min(1).max(100), payload: z.record(z.string(), z.unknown()) });

/**
 * POST /jobs/run: QStash hands a job over. The signature is checked on the raw body (awaited) before anything is
 * parsed; without QStash configuration the route does not exist. A 5xx asks QStash to retry the message.
 * Not part of the public API, so not in the OpenAPI document.
 */
export function registerRunJob(app: Group) {
  app.post(JOBS_PATH, async (c) => {
    const services = c.get('services');
    if (!qstashConfigured(services.config)) throw new ApiError('not_found', `no route for POST ${JOBS_PATH}`);
    const raw = await c.req.text();
    if (!(await verifyQStashSignature(services.config, c.req.header('upstash-signature'), raw))) {
      throw new ApiError('unauthorized', 'missing or invalid Upstash-Signature');
    }
    let envelope: z.infer<typeof Envelope>;
    try {
      envelope = Envelope.parse(JSON.parse(raw));
    } catch {
      throw new ApiError('validation_error', 'body: expected { kind, payload }');
    }
    if (!Object.hasOwn(jobHandlers, envelope.kind)) throw new ApiError('validation_error', `kind: no handler for "${envelope.kind}"`);
    const attempt = Number(c.req.header('upstash-retried') ?? 0) + 1;
    await runHandler(jobHandlers, envelope.kind, envelope.payload, { services, attempt });
    // A step of another kind (a follow-up send) may have written events: dispatch them now, not at the sweep.
    if (!envelope.kind.startsWith('webhook.')) {
      await services.queue.poke(DISPATCH_JOB).catch((err) => services.log.warn('webhook dispatch trigger failed', { error: errorText(err) }));
    }
    return c.json({ ok: true, kind: envelope.kind });
  });
}
