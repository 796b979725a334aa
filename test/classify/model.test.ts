import { describe, expect, it } from 'vitest';
import { extractFeatures } from '../../lib/classify/features';
import { combine, loadModel, predict, RULE_WEIGHT, train, type ModelData } from '../../lib/classify/model';
import { MODEL } from '../../lib/classify/model_data';
import { classifyOffline, classifyRules, modelProbabilities, ownText, rulesDecide } from '../../lib/classify/offline';
import { CLASSIFICATIONS } from '../../lib/classify/types';
import { examplesOf, loadSet, TRAINING_SETS } from '../../scripts/train_classify';

// The learned layer of the offline engine (docs/classifier.md). Its cross-validated scores come from
// `npm run eval:classify -- --cv`, a script: they take half a minute and are not floors to hold in a test.

describe('shipped model', () => {
  it('loads without the fixtures, with every label and a weight table of the declared size', () => {
    const m = loadModel(MODEL);
    expect(m.labels).toEqual([...CLASSIFICATIONS]);
    expect(m.w.length).toBe(CLASSIFICATIONS.length << MODEL.bits);
    expect(m.bias).toHaveLength(CLASSIFICATIONS.length);
    // Cloudflare Workers bundle it: keep it small.
    expect(JSON.stringify(MODEL).length).toBeLessThan(300_000);
    expect(MODEL.trainedOn).toContain('replies.fresh7.json');
  });

  it('refuses a corrupt or foreign model file instead of classifying with it', () => {
    expect(() => loadModel({ ...MODEL, weights: MODEL.weights.slice(0, 100) })).toThrow(/wrong size/);
    expect(() => loadModel({ ...MODEL, version: 2 } as unknown as ModelData)).toThrow(/version/);
    expect(() => loadModel({ ...MODEL, labels: ['hot', 'warm', 'cold', 'not_interested', 'maybe'] } as ModelData)).toThrow(/label/);
  });

  it('gives a probability per label that sums to 1', () => {
    const p = modelProbabilities(ownText('Thanks, we have this handled internally.'), '');
    expect(Object.keys(p).sort()).toEqual([...CLASSIFICATIONS].sort());
    expect(Object.values(p).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 6);
  });

  it('is what `npm run train:classify` makes from the labelled sets today (retrain after changing them)', () => {
    const examples = TRAINING_SETS.flatMap((n) => examplesOf(loadSet(n)));
    const fresh = train(examples, undefined, MODEL.trainedOn);
    expect(fresh.bias).toEqual(MODEL.bias);
    expect(fresh.scale).toBe(MODEL.scale);
    expect(fresh.weights === MODEL.weights).toBe(true);
  }, 60_000);

  it('trains deterministically and learns a toy task', () => {
    const ex = (t: string, label: (typeof CLASSIFICATIONS)[number]) => ({
      feats: extractFeatures({ own: t, subject: '', signals: [], ruleLabel: '' }),
      label,
    });
    const data = [ex('yes lets talk', 'hot'), ex('out of office', 'ooo'), ex('no thanks', 'not_interested'), ex('who are you', 'cold'), ex('send info', 'warm')];
    const opts = { bits: 10, epochs: 20, l2: 1e-4, lr: 0.5, seed: 1 };
    const a = train(data, opts);
    expect(train(data, opts)).toEqual(a);
    const m = loadModel(a);
    const top = (t: string) => {
      const p = predict(m, extractFeatures({ own: t, subject: '', signals: [], ruleLabel: '' }));
      return CLASSIFICATIONS.reduce((x, y) => (p[y] > p[x] ? y : x));
    };
    expect(top('out of office')).toBe('ooo');
    expect(top('no thanks')).toBe('not_interested');
  });
});

describe('rules and model together', () => {
  it('lets the model correct a cold "no signal" from the rules, and says so in the signals', () => {
    // An example the shipped model flips (a retrained model may need another one).
    const text = 'Doen we zelf, dank je.';
    expect(classifyRules(text).signals).toEqual(['cold.no_signal']);
    const r = classifyOffline(text);
    expect(r.classification).toBe('not_interested');
    expect(r.signals).toContain('model.not_interested');
    expect(r.confidence).toBeGreaterThan(0);
    expect(r.confidence).toBeLessThanOrEqual(0.99);
  });

  it('never lets the model touch an opt-out or a verdict that is a convention of its own (STANDING in offline.ts)', () => {
    for (const [text, label] of [
      ['unsubscribe', 'not_interested'],
      ['Quand êtes-vous disponible ?', 'hot'],
      ["I'm out of office until the 14th. Let's book a call when I'm back.", 'hot'],
      ['This address is no longer in use. Please write to hello@northfield.io instead.', 'ooo'],
      ["I'm in meetings all day, will reply tomorrow.", 'cold'],
      // The model alone reads this as a no (it learned "merci de ne plus m'envoyer"); a material request is warm.
      ["Merci de m'envoyer la documentation.", 'warm'],
    ] as const) {
      const rules = classifyRules(text);
      expect(rules.classification).toBe(label);
      expect(rulesDecide(rules)).toBe(true);
      expect(classifyOffline(text)).toEqual(rules);
    }
  });

  it("weighs the rules' other hot, not_interested and ooo verdicts like their cold and warm (round 11)", () => {
    // Each was a rules verdict that stood until round 11; none carries a convention's signal.
    for (const text of ['Not for us.', 'Out of office until Monday.', 'On holiday this week, but the answer is simple: no thanks.']) {
      expect(rulesDecide(classifyRules(text))).toBe(false);
    }
    // A person who mentions being away and then says no, or asks a product question, is not an automatic notice.
    expect(classifyOffline('On holiday this week, but the answer is simple: no thanks, we just renewed with our current supplier for three years.').classification).toBe('not_interested');
    expect(classifyOffline('Estoy de vacaciones hasta el lunes. ¿Funciona con SAP Business One?').classification).toBe('warm');
    expect(classifyOffline('Out of office until Monday.').classification).toBe('ooo');
    // A notice's stock questions are no question of the writer's own.
    for (const notice of ["I'm out of the office until 12 May. Any questions? Please contact my colleague Anna.", 'Ich bin bis zum 12. Mai nicht im Büro. Fragen? Wenden Sie sich an Herrn Kurz.']) {
      const r = classifyRules(notice);
      expect(r.classification).toBe('ooo');
      expect(r.signals).not.toContain('rule.away_with_question');
    }
  });

  it('lets the model weigh a price-list request that is to be read later (material, warm) but not one asked plainly', () => {
    for (const text of ['Mándame los precios y lo reviso la semana que viene con mi socio.', 'Stuur me de prijzen, dan kijk ik er na de zomer naar.', "Email me your rates and I'll look at them after the holidays."]) {
      expect(rulesDecide(classifyRules(text))).toBe(false);
      expect(classifyOffline(text).classification).toBe('warm');
    }
    expect(classifyOffline('Sounds interesting, can you send over pricing?').classification).toBe('hot');
  });

  it('keeps rule 4 (a no with a time qualifier is warm) out of the model\'s reach', () => {
    const r = classifyOffline('Not something we need right now.');
    expect(r.classification).toBe('warm');
    expect(r.signals.some((s) => s.startsWith('model.'))).toBe(false);
  });

  it('keeps the rules\' cold or warm unless the model prefers another label by more than RULE_WEIGHT allows', () => {
    const p = (hot: number, warm: number) => ({ hot, warm, cold: 1 - hot - warm, not_interested: 0, ooo: 0 });
    // The rules' label gets w; the model's (1 - w)·p: 'hot' must lead by w / (1 - w) to win.
    const margin = RULE_WEIGHT / (1 - RULE_WEIGHT);
    expect(combine(p(0.5 + margin / 2 - 0.01, 0.5 - margin / 2 + 0.01), 'warm').label).toBe('warm');
    expect(combine(p(0.5 + margin / 2 + 0.01, 0.5 - margin / 2 - 0.01), 'warm').label).toBe('hot');
  });
});
