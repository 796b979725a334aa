// Periodic work other parts register (the course's daily planner; later the infrastructure snapshot, the sequencer
// snapshot, mailbox ticks). One registry serves both clocks: under CLOCK=wall the `clock.ticks` job (periodic, every
// minute) enqueues each tick's latest slot once (jobs dedupe key / QStash deduplication id `tick:<name>:<slot>`);
// under CLOCK=sim the advance runs every slot it passes, in time order. Either way a tick runs at least once per
// slot, so a tick function must be idempotent for its `at` (the slot time, not the time it happened to run).
import type { Services } from '../services';

/** Seconds between runs, or once a day at HH:MM UTC ('daily' = 00:00 UTC). */
export type TickSchedule = number | 'daily' | { everySeconds: number } | { dailyAt: string };
export type TickFn = (services: Services, at: Date) => Promise<void>;
/**
 * `coalesce`: the tick only records the state it reads (the infrastructure snapshot), so when nothing else happens
 * between two of its slots the earlier run is overwritten unchanged. The simulated clock then does not stop at its
 * slots; it runs the tick once for its latest slot at each moment it stops anyway, and at the end of the advance.
 * Under the wall clock every slot runs as usual.
 */
export type TickOptions = { coalesce?: boolean };
export type Tick = { name: string; everyMs: number; offsetMs: number; fn: TickFn; coalesce: boolean };

const DAY_MS = 86_400_000;
const registry = new Map<string, Tick>();

function parse(name: string, s: TickSchedule): { everyMs: number; offsetMs: number } {
  if (typeof s === 'number' || (typeof s === 'object' && 'everySeconds' in s)) {
    const seconds = typeof s === 'number' ? s : s.everySeconds;
    if (!Number.isInteger(seconds) || seconds < 60 || DAY_MS % (seconds * 1000) !== 0) {
      // Slots are aligned to the epoch and must fit a day evenly, so every process agrees on them after a restart.
      throw new Error(`tick ${name}: everySeconds must be a whole number ≥ 60 that divides a day (60, 300, 600, 3600…)`);
    }
    return { everyMs: seconds * 1000, offsetMs: 0 };
  }
  const hhmm = s === 'daily' ? '00:00' : s.dailyAt;
  const m = /^([01]\d|2[0-3]):([0-5]\d)$/.exec(hhmm);
  if (!m) throw new Error(`tick ${name}: dailyAt must be HH:MM (UTC), got ${JSON.stringify(hhmm)}`);
  return { everyMs: DAY_MS, offsetMs: (Number(m[1]) * 60 + Number(m[2])) * 60_000 };
}

/** Registers (or replaces) a tick. Daily ticks are in UTC: a tick serves every organization, each in its own zone. */
export function registerTick(name: string, schedule: TickSchedule, fn: TickFn, opts: TickOptions = {}): void {
  registry.set(name, { name, ...parse(name, schedule), fn, coalesce: opts.coalesce === true });
}

export function unregisterTick(name: string): void {
  registry.delete(name);
}

export function tick(name: string): Tick | undefined {
  return registry.get(name);
}

export function ticks(): Tick[] {
  return [...registry.values()].sort((a, b) => a.name.localeCompare(b.name));
}

/** The latest slot at or before `at`. */
export function slotAtOrBefore(t: Tick, at: Date): Date {
  const ms = at.getTime() - t.offsetMs;
  return new Date(Math.floor(ms / t.everyMs) * t.everyMs + t.offsetMs);
}

/** The first slot strictly after `at`. */
export function slotAfter(t: Tick, at: Date): Date {
  return new Date(slotAtOrBefore(t, at).getTime() + t.everyMs);
}

/** Every (tick, slot) in (from, to], in time order (ties by name); coalescing ticks only with `all`. */
export function slotsBetween(from: Date, to: Date, opts: { all?: boolean } = {}): { tick: Tick; at: Date }[] {
  const out: { tick: Tick; at: Date }[] = [];
  for (const t of ticks()) {
    if (t.coalesce && !opts.all) continue;
    for (let s = slotAfter(t, from); s.getTime() <= to.getTime(); s = new Date(s.getTime() + t.everyMs)) out.push({ tick: t, at: s });
  }
  return out.sort((a, b) => a.at.getTime() - b.at.getTime() || a.tick.name.localeCompare(b.tick.name));
}
