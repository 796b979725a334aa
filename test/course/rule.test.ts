// The course rule on fixed dates, without a database: proration over completed workdays / days, the month as the
// period, spread carrying a shortfall into the next month, drop forgetting it, and each status's threshold.
import { describe, expect, it } from 'vitest';
import { dayIn, startOfDay, workdaysBetween } from '../../lib/course/days';
import { courseFigures, type RuleAgreement } from '../../lib/course/rule';

const prospects = (over: Partial<RuleAgreement> = {}): RuleAgreement => ({ kind: 'new_prospects_per_workday', target: 10, start: '2026-03-02', catchUp: 'spread', ...over });
const meetings = (over: Partial<RuleAgreement> = {}): RuleAgreement => ({ kind: 'meetings_per_month', target: 31, start: '2026-03-01', catchUp: 'spread', ...over });

describe('calendar', () => {
  it('counts Monday to Friday in [from, to)', () => {
    // March 2026: the 1st is a Sunday; 22 workdays.
    expect(workdaysBetween('2026-03-01', '2026-04-01')).toBe(22);
    expect(workdaysBetween('2026-03-02', '2026-03-09')).toBe(5);
    expect(workdaysBetween('2026-03-06', '2026-03-09')).toBe(1);
    expect(workdaysBetween('2026-03-07', '2026-03-09')).toBe(0);
    expect(workdaysBetween('2026-03-09', '2026-03-02')).toBe(0);
  });

  it("finds a day's first instant in the organization's zone, across daylight saving changes", () => {
    expect(startOfDay('UTC', '2026-03-02').toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(startOfDay('Europe/Berlin', '2026-01-15').toISOString()).toBe('2026-01-14T23:00:00.000Z');
    expect(startOfDay('Europe/Berlin', '2026-03-30').toISOString()).toBe('2026-03-29T22:00:00.000Z');
    // The change itself happens at 02:00 on 2026-03-29: midnight is still winter time.
    expect(startOfDay('Europe/Berlin', '2026-03-29').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfDay('America/Los_Angeles', '2026-11-01').toISOString()).toBe('2026-11-01T07:00:00.000Z');
    expect(dayIn('Pacific/Auckland', new Date('2026-03-02T12:00:00Z'))).toBe('2026-03-03');
  });
});

describe('courseFigures', () => {
  it('is not started before its start day, and while nothing is due and nothing was counted', () => {
    expect(courseFigures(prospects(), '2026-03-01', { before: 0, current: 0 })).toMatchObject({ status: 'not started', actual: 0, expected_to_date: 0 });
    // The start day: no workday completed yet.
    expect(courseFigures(prospects(), '2026-03-02', { before: 0, current: 0 })).toMatchObject({ status: 'not started', expected_to_date: 0 });
    // Something counted on the start day: under way and on track.
    expect(courseFigures(prospects(), '2026-03-02', { before: 0, current: 3 })).toMatchObject({ status: 'on track', actual: 3, expected_to_date: 0 });
  });

  it('prorates per workday over completed workdays and puts each status at its threshold', () => {
    // Thursday 2026-03-12: 8 workdays completed since Monday 2026-03-02 → 80 expected.
    const at = (current: number) => courseFigures(prospects(), '2026-03-12', { before: 0, current });
    expect(at(80)).toMatchObject({ expected_to_date: 80, status: 'on track' });
    expect(at(95)).toMatchObject({ status: 'on track' });
    expect(at(79)).toMatchObject({ status: 'at risk' });
    expect(at(64)).toMatchObject({ status: 'at risk' });
    expect(at(63)).toMatchObject({ status: 'off track' });
    // A weekend completes no workday: Monday expects what Saturday did.
    expect(courseFigures(prospects(), '2026-03-16', { before: 0, current: 0 }).expected_to_date).toBe(100);
    expect(courseFigures(prospects(), '2026-03-14', { before: 0, current: 0 }).expected_to_date).toBe(100);
    // Closing the month: March's 22 workdays × 10 − 50, over the 14 workdays left (today included).
    expect(courseFigures(prospects(), '2026-03-12', { before: 0, current: 50 })).toMatchObject({ still_needed: 170, units_left: 14, unit: 'workday' });
  });

  it('prorates a monthly target over completed calendar days of the month', () => {
    // 31 meetings in March = 1 a day; on the 11th, 10 days are complete.
    expect(courseFigures(meetings(), '2026-03-11', { before: 0, current: 10 })).toMatchObject({ expected_to_date: 10, status: 'on track' });
    expect(courseFigures(meetings(), '2026-03-11', { before: 0, current: 8 })).toMatchObject({ status: 'at risk' });
    expect(courseFigures(meetings(), '2026-03-11', { before: 0, current: 7 })).toMatchObject({ status: 'off track' });
    // Starting mid-month: the month's target shrinks to the days left, the pace stays the same.
    expect(courseFigures(meetings({ start: '2026-03-21' }), '2026-03-26', { before: 0, current: 5 })).toMatchObject({ expected_to_date: 5, still_needed: 6 });
    // April has 30 days: 31 a month is 1.03 a day; on the 16th 15 days are complete.
    expect(courseFigures(meetings(), '2026-04-16', { before: 31, current: 0 }).expected_to_date).toBe(15.5);
  });

  it('spread carries an earlier shortfall into the month; drop forgets it at the month end', () => {
    // March asked for 22 workdays × 10 = 220; 150 were added. April 2026 has 22 workdays; on the 15th, 10 are complete.
    const spread = courseFigures(prospects(), '2026-04-15', { before: 150, current: 110 });
    expect(spread.carried).toBe(70);
    expect(spread.expected_to_date).toBeCloseTo(100 + (70 * 10) / 22, 2);
    expect(spread.status).toBe('at risk');
    const drop = courseFigures(prospects({ catchUp: 'drop' }), '2026-04-15', { before: 150, current: 110 });
    expect(drop).toMatchObject({ carried: 0, expected_to_date: 100, status: 'on track' });
    // A surplus in earlier months is not carried as credit, but it does cover an earlier shortfall.
    expect(courseFigures(prospects(), '2026-04-15', { before: 300, current: 100 })).toMatchObject({ carried: 0, expected_to_date: 100 });
  });

  it('gives a custom agreement no figures: not started, actual and expected null', () => {
    expect(courseFigures({ kind: 'custom', target: 3, start: '2026-01-01', catchUp: 'spread' }, '2026-03-11', null)).toMatchObject({ status: 'not started', actual: null, expected_to_date: null });
  });
});
