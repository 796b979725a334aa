import { sql } from 'drizzle-orm';
import { organizations } from '../../schema';
import { registerTick } from '../clock/ticks';
import type { Services } from '../services';
import { planCatchUp } from './planner';

export const COURSE_TICK = 'course.catch_up';
/** Local hour the planner looks at an organization's course: before its plan steps run at 08:00. */
export const PLANNER_LOCAL_HOUR = 7;

const localHour = (timeZone: string, at: Date) => {
  try {
    return Number(new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }).format(at));
  } catch {
    return at.getUTCHours();
  }
};

/**
 * Ticks are in UTC and organizations are not, so the planner ticks hourly and takes, at each slot, the
 * organizations whose local time is 07:xx: once a day each, in its own morning. Its proposals are idempotent per
 * agreement and day, so a slot delivered twice (or a sim advance that passes it again) proposes nothing new.
 */
export async function courseTick(services: Services, at: Date) {
  const orgs = await services.db
    .select({ id: organizations.id, timezone: organizations.timezone })
    .from(organizations)
    .where(sql`(${organizations.features} ->> 'studio')::boolean is true and exists (select 1 from agreements a where a.org_id = ${organizations.id} and a.active)`);
  const due = orgs.filter((o) => localHour(o.timezone, at) === PLANNER_LOCAL_HOUR).map((o) => o.id);
  if (due.length > 0) await planCatchUp(services, at, { orgIds: due });
}

export function registerCourseTick() {
  registerTick(COURSE_TICK, { everySeconds: 3600 }, courseTick);
}

