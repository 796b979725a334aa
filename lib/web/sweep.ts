// The sweep of dead sign-in state (issue 19): a used or expired link and an ended session are never read again
// (a dead cookie or link is refused whether its row exists or not), so their rows only grow the tables. They are
// kept a while after their end (a day for links, a week for sessions) so that "why was I signed out" and "was this
// link used" can still be answered from the table, then deleted in bounded batches on the service clock.
import { and, inArray, isNotNull, lt, or } from 'drizzle-orm';
import { signInLinks, webSessions } from '../../schema';
import type { Db } from '../db/types';
import type { JobHandlers } from '../queue/port';
import { SESSION_IDLE_MS } from './sessions';

export const WEB_SWEEP_JOB = 'web.sweep';

/** How long a link's row outlives its use or expiry, and a session's row its end. */
export const DEAD_LINK_KEEP_MS = 24 * 3600_000;
export const ENDED_SESSION_KEEP_MS = 7 * 24 * 3600_000;

const BATCH = 1_000;
/** Statements per table per run: a backlog larger than this drains over the next runs, not in one long job. */
const MAX_BATCHES = 20;

export type SweepCounts = { links: number; sessions: number };

/** Deletes dead links and ended sessions past their keep time; returns how many rows went. */
export async function sweepWebSignIns(db: Db, now: Date, opts: { batch?: number; maxBatches?: number } = {}): Promise<SweepCounts> {
  const batch = opts.batch ?? BATCH;
  const maxBatches = opts.maxBatches ?? MAX_BATCHES;
  const linkCutoff = new Date(now.getTime() - DEAD_LINK_KEEP_MS);
  const sessionCutoff = new Date(now.getTime() - ENDED_SESSION_KEEP_MS);
  const deadLink = or(and(isNotNull(signInLinks.usedAt), lt(signInLinks.usedAt, linkCutoff)), lt(signInLinks.expiresAt, linkCutoff));
  // A session ends at sign-out (revoked_at), at its absolute end (expires_at) or 12 hours after its last request.
  const endedSession = or(
    and(isNotNull(webSessions.revokedAt), lt(webSessions.revokedAt, sessionCutoff)),
    lt(webSessions.expiresAt, sessionCutoff),
    lt(webSessions.lastSeenAt, new Date(sessionCutoff.getTime() - SESSION_IDLE_MS)),
  );
  const links = await inBatches(batch, maxBatches, async (n) =>
    (
      await db
        .delete(signInLinks)
        .where(inArray(signInLinks.id, db.select({ id: signInLinks.id }).from(signInLinks).where(deadLink).limit(n)))
        .returning({ id: signInLinks.id })
    ).length,
  );
  const sessions = await inBatches(batch, maxBatches, async (n) =>
    (
      await db
        .delete(webSessions)
        .where(inArray(webSessions.id, db.select({ id: webSessions.id }).from(webSessions).where(endedSession).limit(n)))
        .returning({ id: webSessions.id })
    ).length,
  );
  return { links, sessions };
}

/** Runs one bounded delete until it deletes less than a full batch, or the cap is reached. */
async function inBatches(batch: number, maxBatches: number, deleteUpTo: (n: number) => Promise<number>): Promise<number> {
  let total = 0;
  for (let i = 0; i < maxBatches; i++) {
    const deleted = await deleteUpTo(batch);
    total += deleted;
    if (deleted < batch) break;
  }
  return total;
}

/** The sweep's job kind for the registry (functions/jobs/handlers.ts). */
export function webSweepJobHandlers(): JobHandlers {
  return {
    [WEB_SWEEP_JOB]: async (_payload, { services }) => {
      const counts = await sweepWebSignIns(services.db, services.clock.now());
      if (counts.links || counts.sessions) services.log.info('web sign-in sweep', counts);
    },
  };
}
