import type { AgreementRow } from '../agreements/view';
import type { Db } from '../db/types';
import { countsFor } from './actuals';
import { dayIn, startOfDay } from './days';
import { countBounds, courseFigures, type CourseFigures } from './rule';

export type CourseEntry = { agreement: AgreementRow; today: string; figures: CourseFigures };

/** Each agreement's course at `now`: one counting query per agreement (an organization has a handful). */
export async function courseOf(db: Db, timeZone: string, rows: readonly AgreementRow[], now: Date): Promise<CourseEntry[]> {
  const today = dayIn(timeZone, now);
  return Promise.all(
    rows.map(async (a) => {
      const rule = { kind: a.kind, target: Number(a.target), start: a.start, catchUp: a.catchUp };
      if (today < a.start || a.kind === 'custom') return { agreement: a, today, figures: courseFigures(rule, today, a.kind === 'custom' ? null : { before: 0, current: 0 }) };
      const b = countBounds(a, today);
      const counts = await countsFor(db, a.kind, { orgId: a.orgId, clientId: a.clientId, from: startOfDay(timeZone, b.from), periodStart: startOfDay(timeZone, b.periodStart), until: now });
      return { agreement: a, today, figures: courseFigures(rule, today, counts) };
    }),
  );
}
