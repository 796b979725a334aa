// The QStash adapter: a job is a message QStash delivers to our own POST /jobs/run after its delay, signed with
// `Upstash-Signature`, which the jobs route checks with the real Receiver on the raw body before anything else.
import { Client, Receiver } from '@upstash/qstash';
import type { Config } from '../config';
import type { Clock } from '../limits/port';
import type { JobEnvelope, JobInput, Queue } from './port';
import { errorText } from '../log';
import { forEachLimit } from './run';

export const JOBS_PATH = '/jobs/run';
/** QStash retries a message whose /jobs/run answered non-2xx (a database hiccup, a deploy) this many times. */
const MESSAGE_RETRIES = 3;
const PUBLISH_CONCURRENCY = 8;

export const jobsUrl = (config: Config) => `${config.publicBaseUrl}${JOBS_PATH}`;

export function qstashConfigured(config: Config): boolean {
  return Boolean(config.QSTASH_TOKEN);
}

function signingKeys(config: Config) {
  const current = config.QSTASH_CURRENT_SIGNING_KEY;
  const next = config.QSTASH_NEXT_SIGNING_KEY;
  if (!current || !next) {
    throw new Error('QSTASH_TOKEN is set but QSTASH_CURRENT_SIGNING_KEY / QSTASH_NEXT_SIGNING_KEY are not: /jobs/run could not verify deliveries');
  }
  return { currentSigningKey: current, nextSigningKey: next };
}

export function createQStashQueue(config: Config, clock: Clock): Queue {
  signingKeys(config); // fail at start, not at the first delivery
  const client = new Client({
    baseUrl: config.QSTASH_URL,
    token: config.QSTASH_TOKEN!,
    // Never let a stray QSTASH_DEV swap in the SDK's dev server; our callers retry through the sweep.
    devMode: false,
    enableTelemetry: false,
    retry: { retries: 2, backoff: (n) => 100 * 2 ** n },
  });
  const url = jobsUrl(config);

  async function publish(job: JobInput) {
    const body: JobEnvelope = { kind: job.kind, payload: job.payload ?? {} };
    // A relative delay: our clock and QStash's may differ, the wait we want does not.
    const delayMs = job.runAt ? job.runAt.getTime() - clock.now().getTime() : 0;
    await client.publishJSON({
      url,
      body,
      retries: MESSAGE_RETRIES,
      // Rounded up: QStash counts whole seconds and must never hand a retry over before it is due.
      ...(delayMs > 0 ? { delay: Math.ceil(delayMs / 1000) } : {}),
      ...(job.dedupeKey ? { deduplicationId: job.dedupeKey } : {}),
    });
  }

  return {
    kind: 'qstash',
    transactional: false,
    async enqueue(input) {
      const list = Array.isArray(input) ? input : [input];
      const failures: string[] = [];
      await forEachLimit(list, PUBLISH_CONCURRENCY, (job) => publish(job).catch((err) => void failures.push(`${job.kind}: ${errorText(err)}`)));
      if (failures.length > 0) throw new Error(`QStash publish failed for ${failures.length} of ${list.length} jobs (${failures[0]})`);
    },
    poke: (kind) => publish({ kind }),
  };
}

/**
 * A Worker deployed without QStash settings: nothing can be scheduled, so enqueue fails loudly (its callers log it
 * and leave the work in the database) and poke does nothing; the jobs Worker's cron sweep still dispatches events
 * and sends overdue deliveries itself, so webhooks degrade to once a minute instead of stopping.
 */
export function createUnconfiguredQueue(): Queue {
  return {
    kind: 'none',
    transactional: false,
    async enqueue() {
      throw new Error('QStash is not configured (QSTASH_TOKEN, QSTASH_CURRENT_SIGNING_KEY, QSTASH_NEXT_SIGNING_KEY)');
    },
    async poke() {},
  };
}

/** Checks `Upstash-Signature` over the raw body, for our own /jobs/run URL. Never throws. */
export async function verifyQStashSignature(config: Config, signature: string | undefined, rawBody: string): Promise<boolean> {
  if (!signature || !qstashConfigured(config)) return false;
  const receiver = new Receiver({ ...signingKeys(config), devMode: false });
  try {
    return await receiver.verify({ signature, body: rawBody, url: jobsUrl(config), clockTolerance: 5 });
  } catch {
    return false;
  }
}
