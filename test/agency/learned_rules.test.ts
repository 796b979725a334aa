// Learned rules: mining review edits (removed, replaced and added sentences, sign-offs, length) without ever
// learning a prospect's facts; re-mining adds evidence, not rules; learned_rules and activate_learned_rule on both
// faces (idempotent, audited, tenant-isolated); an active rule changes the next writing and its sentences cite it.
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { factTest, mineMail } from '../../lib/learning/diff';
import { mineEdit } from '../../lib/learning/mine';
import { parseRule, ruleText, type RuleSpec } from '../../lib/learning/rules';
import { offlineWriter } from '../../lib/writing/offline';
import { splitSentences } from '../../lib/writing/sentences';
import { auditLog, learnedRules, reviewEdits, type WrittenMail } from '../../schema';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { writingTenant, type WritingTenant } from './writing_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

/** A mail as the writer would store it, every sentence from the sequence (or the hook for `hook:` lines). */
function mail(text: string, step = 1): WrittenMail {
  const pieces = splitSentences(text);
  return { step, subject: null, delay_days: 0, body: text, sentences: pieces.map((p) => ({ text: p.text, source: { kind: 'sequence', ref: `step ${step}` } })) };
}
const specs = (cs: { spec: RuleSpec }[]) => cs.map((c) => c.spec);

const BEFORE = 'Hi Anna,\n\nI hope this finds you well. We would love to chat about Acme. We help teams like yours.\n\nBest regards,\nMaria';
const AFTER = 'Hi Anna,\n\nWe would like to chat about Acme. We help teams like yours.\n\nWould a short call next week make sense?\n\nCheers,\nMaria';
const facts = factTest(['Anna', 'Schmidt', 'Acme', 'acme.example', 'Head of Sales', 'Berlin']);

describe('mining an edit', () => {
  it('reads removed, replaced and added sentences and a changed sign-off as rule candidates', () => {
    expect(specs(mineMail(1, mail(BEFORE), mail(AFTER), facts))).toEqual([
      { kind: 'avoid_phrase', phrase: 'I hope this finds you well' },
      { kind: 'replace_phrase', from: 'love', to: 'like' },
      { kind: 'sign_off', from: 'Best regards,', to: 'Cheers,' },
      { kind: 'add_sentence', step: 1, sentence: 'Would a short call next week make sense?' },
    ]);
  });

  it('never learns a fact: names, companies, numbers, addresses and field sentences stay out', () => {
    const before = mail('Hi Anna,\n\nWe saw Acme raised 5 million. Your office in Berlin is growing.\n\nBest,\nMaria');
    const after = mail('Hi Anna,\n\nWe saw Acme raised 7 million. Your office in Hamburg is growing. Say hello to Tom from me. Congrats on Acme going public.\n\nBest,\nMaria');
    expect(mineMail(1, before, after, facts)).toEqual([]);
    // A sentence written from a field (the hook) is the prospect's own: rewording it teaches nothing.
    const hooked: WrittenMail = { ...mail('Hi Anna,\n\nYour hiring push caught my eye.'), sentences: [{ text: 'Hi Anna,', source: { kind: 'sequence', ref: 'step 1' } }, { text: 'Your hiring push caught my eye.', source: { kind: 'field', ref: 'hook' } }] };
    expect(mineMail(1, hooked, mail('Hi Anna,\n\nYour hiring push stood out.'), facts)).toEqual([]);
    // A greeting word may change (capital at the start of a sentence), the name may not.
    expect(specs(mineMail(1, mail('Hi Anna, thanks.\n\nWe help teams.\n\nBest,\nMaria'), mail('Hello Anna, thanks.\n\nWe help teams.\n\nBest,\nMaria'), facts))).toEqual([{ kind: 'replace_phrase', from: 'Hi', to: 'Hello' }]);
  });

  it('reads a much shorter mail as a length rule', () => {
    const long = mail('Hi there.\n\nOne. Two is here. Three is here. Four is here. Five is here. Six is here.\n\nBest,\nMaria');
    const short = mail('Hi there.\n\nOne.\n\nBest,\nMaria');
    expect(specs(mineMail(1, long, short, facts))).toContainEqual({ kind: 'max_sentences', max: 4 });
  });

  it('writes rule texts the writer reads back', () => {
    const all: RuleSpec[] = [
      { kind: 'avoid_phrase', phrase: 'I hope this "finds" you well' },
      { kind: 'replace_phrase', from: 'love', to: 'like' },
      { kind: 'sign_off', from: 'Best regards,', to: 'Cheers,' },
      { kind: 'add_sentence', step: 2, sentence: 'Would a call help?' },
      { kind: 'max_sentences', max: 4 },
    ];
    for (const r of all) expect(parseRule(r.kind, ruleText(r))).toEqual(r);
    expect(parseRule('unknown', 'Whatever.')).toBeNull();
  });
});

async function edit(w: WritingTenant, leadId: string, before: string, after: string) {
  const batch = await w.makeBatch([leadId]);
  return w.db.transaction(async (tx) => {
    const [row] = await tx.insert(reviewEdits).values({ orgId: w.t.org.id, clientId: w.t.client.id, batchId: batch.id, poolLeadId: leadId, step: 1, before: mail(before), after: mail(after), by: 'mcp:assistant' }).returning();
    await mineEdit(tx, { orgId: w.t.org.id, clientId: w.t.client.id, editId: row.id, batchId: batch.id, poolLeadId: leadId, before: row.before, after: row.after });
    return row;
  });
}

describe('learned_rules and activate_learned_rule', () => {
  it('mines edits into suggested rules; the same change again adds evidence, not rules', async () => {
    const w = await writingTenant(env);
    const [anna, ben] = await w.addLeads(2, (i) => ({ firstName: i ? 'Ben' : 'Anna', company: 'Acme' }));
    const e1 = await edit(w, anna.id, BEFORE, AFTER);
    const e2 = await edit(w, ben.id, BEFORE.replace('Anna', 'Ben'), AFTER.replace('Anna', 'Ben'));
    // Mining the same edit twice (a retried call) leaves the evidence as it was.
    await w.db.transaction((tx) => mineEdit(tx, { orgId: w.t.org.id, clientId: w.t.client.id, editId: e1.id, batchId: e1.batchId, poolLeadId: anna.id, before: e1.before, after: e1.after }));
    const r = await w.rest('GET', `${w.base}/learned-rules`);
    expect(r.status, r.text).toBe(200);
    // Rules mined together are listed (and applied) in the order of their keys.
    expect(r.json.rules.map((x: any) => [x.kind, x.status, x.evidence.map((e: any) => e.edit_id)])).toEqual([
      ['add_sentence', 'suggested', [e1.id, e2.id]],
      ['avoid_phrase', 'suggested', [e1.id, e2.id]],
      ['replace_phrase', 'suggested', [e1.id, e2.id]],
      ['sign_off', 'suggested', [e1.id, e2.id]],
    ]);
    expect(r.json.rules[2]).toMatchObject({ rule: 'Write "like" instead of "love".', activated_by: null, activated_at: null, evidence: [{ lead_id: anna.id, before: 'love', after: 'like' }, { lead_id: ben.id }] });
    // Nothing a rule says names the prospect or the company.
    expect(JSON.stringify(r.json.rules.map((x: any) => x.rule))).not.toMatch(/Anna|Ben|Acme/);
    const viaMcp = await w.tool('learned_rules', { client_id: w.t.client.id, status: 'suggested' });
    expect(viaMcp.isError, viaMcp.text).toBe(false);
    expect(viaMcp.json).toEqual(r.json);
    expect((await w.rest('GET', `${w.base}/learned-rules?status=active`)).json.rules).toEqual([]);
    expect((await w.rest('GET', `${w.base}/learned-rules?status=bogus`)).status).toBe(400);
  });

  it('activates once (audited, idempotent), refuses another tenant, and the next writing applies and cites the rules', async () => {
    const w = await writingTenant(env);
    const [lead] = await w.addLeads(1, () => ({ firstName: 'Anna', company: 'Acme' }));
    await edit(w, lead.id, BEFORE, AFTER);
    const rules = (await w.rest('GET', `${w.base}/learned-rules`)).json.rules as any[];
    const avoid = rules.find((x) => x.kind === 'avoid_phrase');
    const signOff = rules.find((x) => x.kind === 'sign_off');
    const other = await writingTenant(env);
    const foreign = await other.rest('POST', `${other.base}/learned-rules/activate`, { rule_id: avoid.id });
    expect(foreign.status).toBe(404);
    expect((await other.rest('POST', `${w.base}/learned-rules/activate`, { rule_id: avoid.id })).status).toBe(404);

    const on = await w.rest('POST', `${w.base}/learned-rules/activate`, { rule_id: avoid.id });
    expect(on.status, on.text).toBe(200);
    expect(on.json).toMatchObject({ changed: true, rule: { id: avoid.id, status: 'active', activated_by: 'key:assistant', activated_at: expect.any(String) } });
    const again = await w.tool('activate_learned_rule', { client_id: w.t.client.id, rule_id: avoid.id });
    expect(again.isError, again.text).toBe(false);
    expect(again.json).toEqual({ changed: false, rule: on.json.rule });
    expect((await w.tool('activate_learned_rule', { client_id: w.t.client.id, rule_id: signOff.id })).json.rule.activated_by).toBe('mcp:assistant');
    const audit = await w.db.select().from(auditLog).where(and(eq(auditLog.orgId, w.t.org.id), eq(auditLog.action, 'learned_rule.activated')));
    expect(audit.map((a) => a.target).sort()).toEqual([`learned_rule:${avoid.id}`, `learned_rule:${signOff.id}`].sort());

    const batch = await w.makeBatch([(await w.addLeads(1))[0].id]);
    const { preview, done } = await w.write();
    expect(done.status, done.text).toBe(200);
    expect(preview.preview.rules_active).toEqual([avoid.id, signOff.id]);
    const [row] = await w.leadRows(batch.id);
    expect(row.rulesUsed.sort()).toEqual([avoid.id, signOff.id].sort());
    const [m1, m2] = row.mails!;
    expect(m1.sentences.map((s) => s.text)).not.toContain('I hope this finds you well.');
    // Step 2 signs off "Best regards," in the template: the rule made it "Cheers," and that line cites the rule.
    expect(m2.sentences.at(-2)).toEqual({ text: 'Cheers,', source: { kind: 'rule', ref: signOff.id } });
    expect(m2.body).toContain('Cheers,\nClient A');
    expect(m1.sentences.concat(m2.sentences).every((s) => s.source !== null)).toBe(true);
    // A suggested rule is not applied.
    expect(JSON.stringify(row.mails)).not.toContain('would like');
    const stored = await w.db.select().from(learnedRules).where(eq(learnedRules.clientId, w.t.client.id));
    expect(stored.filter((x) => x.status === 'active')).toHaveLength(2);
  });

  it('end to end: a review_edit_mail edit is mined, activated, and the lead rewritten without the phrase', async () => {
    const w = await writingTenant(env);
    const [lead] = await w.addLeads(1, () => ({ firstName: 'Anna', company: 'Acme' }));
    const batch = await w.makeBatch([lead.id]);
    expect((await w.write()).done.status).toBe(200);
    const [written] = await w.leadRows(batch.id);
    const body = written.mails![0].body.replace('I hope this finds you well. ', '');
    expect(body).not.toBe(written.mails![0].body);
    const path = `${w.base}/review/${lead.id}/edit`;
    const preview = await w.rest('POST', path, { step: 1, body });
    expect(preview.status, preview.text).toBe(200);
    const edited = await w.rest('POST', path, { step: 1, body, confirm_token: preview.json.confirm_token });
    expect(edited.status, edited.text).toBe(200);
    const rules = (await w.rest('GET', `${w.base}/learned-rules`)).json.rules as any[];
    expect(rules.map((r) => [r.kind, r.rule, r.evidence.map((e: any) => e.edit_id)])).toEqual([['avoid_phrase', 'Never write "I hope this finds you well".', [edited.json.edit.id]]]);
    expect((await w.rest('POST', `${w.base}/learned-rules/activate`, { rule_id: rules[0].id })).status).toBe(200);
    const again = await w.write({ lead_ids: [lead.id] });
    expect(again.done.status, again.done.text).toBe(200);
    const [rewritten] = await w.leadRows(batch.id);
    expect(rewritten.mails![0].body).not.toContain('I hope this finds you well');
    expect(rewritten.rulesUsed).toEqual([rules[0].id]);
    expect(rewritten.review).toBe('pending');
  });

  it('applies a replaced phrase and an added sentence, each citing its rule, deterministically', async () => {
    const ctx = {
      steps: [{ subject: 'Hi', body: 'Hi {{first_name}},\n\nWe would love to chat. We help teams.\n\nBest,\n{{sender.name}}', delay_days: 0, condition: 'always' as const }],
      senderName: 'Maria',
      playbook: null,
      agencyDocs: '',
      rules: [
        { id: 'r1', spec: { kind: 'replace_phrase' as const, from: 'love', to: 'like' } },
        { id: 'r2', spec: { kind: 'add_sentence' as const, step: 1, sentence: 'Would a short call help?' } },
        { id: 'r3', spec: { kind: 'avoid_phrase' as const, phrase: 'never used here' } },
      ],
    };
    const lead = { id: 'l1', values: { first_name: 'Anna', 'sender.name': 'Maria' } };
    const [a] = await offlineWriter.write(ctx, [lead]);
    const [b] = await offlineWriter.write(ctx, [lead]);
    expect(b).toEqual(a);
    expect(a.rulesUsed).toEqual(['r1', 'r2']);
    expect(a.mails[0].sentences).toEqual([
      { text: 'Hi Anna,', source: { kind: 'sequence', ref: 'step 1' } },
      { text: 'We would like to chat.', source: { kind: 'rule', ref: 'r1' } },
      { text: 'We help teams.', source: { kind: 'sequence', ref: 'step 1' } },
      { text: 'Would a short call help?', source: { kind: 'rule', ref: 'r2' } },
      { text: 'Best,', source: { kind: 'sequence', ref: 'step 1' } },
      { text: 'Maria', source: { kind: 'sequence', ref: 'step 1' } },
    ]);
    expect(a.mails[0].body).toBe('Hi Anna,\n\nWe would like to chat. We help teams.\n\nWould a short call help?\n\nBest,\nMaria');
  });
});
