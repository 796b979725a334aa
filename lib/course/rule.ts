import type { AgreementKind } from '../../schema';
import { addDays, daysBetween, monthStart, nextMonthStart, workdaysBetween, type Day } from './days';

export const COURSE_STATUSES = ['on track', 'at risk', 'off track', 'not started'] as const;
export type CourseStatus = (typeof COURSE_STATUSES)[number];

/** Below expected but at least this share of it is `at risk`; less is `off track`. */
export const AT_RISK_SHARE = 0.8;

export type RuleAgreement = { kind: AgreementKind; target: number; start: Day; catchUp: 'spread' | 'drop' };
/** Counts since the agreement's start: `before` the current period began, and in it (`current`). */
export type Counts = { before: number; current: number };

export type CourseFigures = {
  actual: number | null;
  expected_to_date: number | null;
  status: CourseStatus;
  /** For the planner: the shortfall carried in from earlier months (spread), what the month still needs, and when. */
  carried: number;
  still_needed: number;
  units_left: number;
  unit: 'workday' | 'day';
};

const round2 = (n: number) => Math.round(n * 100) / 100;
const daysInMonth = (m: Day) => daysBetween(m, nextMonthStart(m));

/** What one calendar month from `from` on (its first day or the agreement's start) asks for. */
function periodTarget(a: RuleAgreement, from: Day): number {
  const end = nextMonthStart(from);
  return a.kind === 'new_prospects_per_workday' ? a.target * workdaysBetween(from, end) : (a.target * daysBetween(from, end)) / daysInMonth(monthStart(from));
}

/** Everything the months before the current one asked for, from the agreement's start on. */
function targetBefore(a: RuleAgreement, periodStart: Day): number {
  if (periodStart <= a.start) return 0;
  if (a.kind === 'new_prospects_per_workday') return a.target * workdaysBetween(a.start, periodStart);
  let sum = 0;
  for (let m = a.start; m < periodStart; m = nextMonthStart(m)) sum += periodTarget(a, m);
  return sum;
}

/**
 * The course rule (docs/course.md). The period is the calendar month in the organization's timezone, counted from
 * the agreement's start in its first month. Only completed days count toward what is expected (today is still
 * under way), so the morning of a workday is not "behind" yet; what was done today counts toward the actual.
 */
export function courseFigures(a: RuleAgreement, today: Day, counts: Counts | null): CourseFigures {
  const perWorkday = a.kind === 'new_prospects_per_workday';
  const unit = perWorkday ? 'workday' : 'day';
  const end = nextMonthStart(today);
  const unitsLeft = perWorkday ? workdaysBetween(today, end) : daysBetween(today, end);
  if (a.kind === 'custom' || counts === null) {
    return { actual: null, expected_to_date: null, status: 'not started', carried: 0, still_needed: 0, units_left: unitsLeft, unit };
  }
  if (today < a.start) {
    return { actual: 0, expected_to_date: 0, status: 'not started', carried: 0, still_needed: 0, units_left: unitsLeft, unit };
  }
  const periodStart = a.start > monthStart(today) ? a.start : monthStart(today);
  const period = periodTarget(a, periodStart);
  const carried = a.catchUp === 'spread' ? Math.max(0, targetBefore(a, periodStart) - counts.before) : 0;
  // The share of the current period that is behind us: completed workdays (or days) over all of them.
  const done = perWorkday ? workdaysBetween(periodStart, today) : daysBetween(periodStart, today);
  const all = perWorkday ? workdaysBetween(periodStart, end) : daysBetween(periodStart, end);
  const share = all === 0 ? 1 : done / all;
  const expected = round2((period + carried) * share);
  const actual = counts.current;
  let status: CourseStatus;
  if (expected === 0 && counts.before + counts.current === 0) status = 'not started';
  else if (actual >= expected) status = 'on track';
  else if (actual >= AT_RISK_SHARE * expected) status = 'at risk';
  else status = 'off track';
  return { actual, expected_to_date: expected, status, carried: round2(carried), still_needed: round2(Math.max(0, period + carried - actual)), units_left: unitsLeft, unit };
}

/** The instants the counts are split at: the agreement's start and the current period's start (both days). */
export function countBounds(a: Pick<RuleAgreement, 'start'>, today: Day): { from: Day; periodStart: Day; tomorrow: Day } {
  const periodStart = a.start > monthStart(today) ? a.start : monthStart(today);
  return { from: a.start, periodStart, tomorrow: addDays(today, 1) };
}
