import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { evaluate, type LabelledReply } from '../../lib/classify/eval';
import { classifyOffline } from '../../lib/classify/offline';
import { CLASSIFICATIONS } from '../../lib/classify/types';

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
