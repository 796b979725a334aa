import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate, type LabelledReply } from '../../lib/classify/eval';
import { classifyOffline } from '../../lib/classify/offline';
import { CLASSIFICATIONS, type Classification } from '../../lib/classify/types';

const cases = JSON.parse(
  readFileSync(new URL('../fixtures/replies.labelled.json', import.meta.url), 'utf8'),
) as LabelledReply[];

// Floors sit just under the figures measured with `npm run eval:classify`
// (564 replies: 99.8% overall; every label ≥ 99.1% precision and recall).
// These are in-sample numbers: the rules were written after, and refined
// against, this set. The set grew in rounds (204 replies, then six batches of
// 60 written fresh after each rules revision); on each fresh batch, before it
// was added, the classifier scored 62%, 67%, 63%, 67%, 73% and 80%. Expect
// roughly that on unseen phrasing; these floors guard against regressions.
const ACCURACY_FLOOR = 0.98;
const RECALL_FLOOR = { hot: 0.97, warm: 0.97, cold: 0.97, not_interested: 0.97, ooo: 0.97 } as const;
const PRECISION_FLOOR = 0.97;

describe('labelled reply set', () => {
  it('is large, balanced and well-formed', () => {
    expect(cases.length).toBeGreaterThanOrEqual(180);
    for (const l of CLASSIFICATIONS) expect(cases.filter((c) => c.label === l).length).toBeGreaterThanOrEqual(30);
    for (const c of cases) {
      expect(typeof c.text).toBe('string');
      expect(CLASSIFICATIONS).toContain(c.label);
    }
  });

  const report = evaluate(cases);

  it(`overall accuracy ≥ ${ACCURACY_FLOOR}`, () => {
    expect(report.accuracy).toBeGreaterThanOrEqual(ACCURACY_FLOOR);
  });

  it.each(CLASSIFICATIONS)('%s recall and precision above the floors', (l) => {
    expect(report.perLabel[l].recall).toBeGreaterThanOrEqual(RECALL_FLOOR[l]);
    expect(report.perLabel[l].precision).toBeGreaterThanOrEqual(PRECISION_FLOOR);
  });

  it('a quoted cold pitch under any reply never changes its label', () => {
    const pitch =
      '\n\nOn Tue, Mar 4, 2025 at 9:12 AM Sam Carter <sam@growthpilot.io> wrote:\n' +
      '> Would you be open to a 15-minute call or a demo next week? Pricing starts at $99.\n' +
      "> Not interested? Reply 'unsubscribe' and I'll stop.";
    const changed = cases.filter((c) => {
      const own = classifyOffline(c.text, { subject: c.subject }).classification;
      return classifyOffline(c.text + pitch, { subject: c.subject }).classification !== own;
    });
    expect(changed.map((c) => c.text.slice(0, 60))).toEqual([]);
  });
});

// Fresh sets (issue 12): written after the rules above, in English, German, French, Spanish and Dutch, with
// follow-ups that only make sense inside a thread. Each was scored once, unseen, before any rule was tuned on it:
//  - replies.fresh.json (223): first 78.5% (175/223); then one tuning round on it, 100% in-sample since.
//  - replies.fresh2.json (70): written after that round; first 80.0% (56/70); then the next tuning round used its
//    misses (as phrase families in all five languages, not per sentence), 100% in-sample since. Both now hold the
//    target floors (0.95 overall, 0.90 per label) as regression guards.
//  - replies.fresh3.json (110: hot 24, warm 22, cold 22, not_interested 22, ooo 20; 64 English, 46 DE/FR/ES/NL)
//    was written after that round; first (unseen) 85.5% (94/110): precision / recall hot 95.8 / 95.8, warm
//    79.2 / 86.4, cold 64.3 / 81.8, not_interested 100 / 72.7, ooo 100 / 90.0. The next round was tuned on its 16
//    misses (as phrase families in all five languages); 100% in-sample since.
//  - replies.fresh4.json (170: 34 per label; EN 50, DE/FR/ES/NL 30 each) was written BEFORE that round's tuning
//    and scored once after it, untouched: 77.6% (132/170); precision / recall hot 92.6 / 73.5, warm 73.0 / 79.4,
//    cold 53.7 / 85.3, not_interested 95.7 / 64.7, ooo 100 / 85.3 — the honest unseen figure, far from the 0.95 /
//    0.90 target. (The classifier before the fresh3 round scored 75.9% on it.) A second round was then tuned on
//    fresh4's 38 misses, so it is in-sample too: 100% since.
// All four fresh sets now hold the target floors (0.95 overall, 0.90 per label) as regression guards only; none
// of them measures unseen phrasing any more. The next round needs a new set, scored before any tuning on it.
type Floors = { accuracy: number; precision: Record<Classification, number>; recall: Record<Classification, number> };
const all = (x: number) => Object.fromEntries(CLASSIFICATIONS.map((l) => [l, x])) as Record<Classification, number>;
const FRESH: [string, number, Floors][] = [
  ['replies.fresh.json', 200, { accuracy: 0.95, precision: all(0.9), recall: all(0.9) }],
  ['replies.fresh2.json', 60, { accuracy: 0.95, precision: all(0.9), recall: all(0.9) }],
  ['replies.fresh3.json', 100, { accuracy: 0.95, precision: all(0.9), recall: all(0.9) }],
  ['replies.fresh4.json', 150, { accuracy: 0.95, precision: all(0.9), recall: all(0.9) }],
  // Round 11's blind sets (docs/classifier.md): written while round 11 was tuned, by writers who saw nothing of the
  // code or the other sets, kept out of the repository until the engine was final, then scored once: 97.2 % and
  // 96.0 %, every label ≥ 0.90 precision and recall. The target, kept as a floor from here on.
  ['replies.fresh11.json', 250, { accuracy: 0.95, precision: all(0.9), recall: all(0.9) }],
  ['replies.fresh12.json', 250, { accuracy: 0.95, precision: all(0.9), recall: all(0.9) }],
];

describe.each(FRESH)('fresh reply set %s', (name, size, floors) => {
  const fresh = JSON.parse(readFileSync(new URL(`../fixtures/${name}`, import.meta.url), 'utf8')) as LabelledReply[];
  const report = evaluate(fresh);

  it(`has at least ${size} well-formed replies covering every label`, () => {
    expect(fresh.length).toBeGreaterThanOrEqual(size);
    for (const l of CLASSIFICATIONS) expect(fresh.filter((c) => c.label === l).length).toBeGreaterThanOrEqual(5);
    for (const c of fresh) {
      expect(typeof c.text).toBe('string');
      expect(CLASSIFICATIONS).toContain(c.label);
    }
  });

  it(`overall accuracy ≥ ${floors.accuracy}`, () => {
    expect(report.accuracy).toBeGreaterThanOrEqual(floors.accuracy);
  });

  it.each(CLASSIFICATIONS)('%s recall and precision above the floors', (l) => {
    expect(report.perLabel[l].recall).toBeGreaterThanOrEqual(floors.recall[l]);
    expect(report.perLabel[l].precision).toBeGreaterThanOrEqual(floors.precision[l]);
  });
});

