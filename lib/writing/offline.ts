// The offline writing engine: the embedded adapter of the writer port. It writes from the client's sequence (each
// step one mail), fills the lead's fields, signs with the playbook's signature and applies active learned rules,
// giving every sentence the source it came from. Pure and deterministic: same context and lead, same mails.
import type { SentenceSource, WrittenMail } from '../../schema';
import { SENDER_NAME } from '../sequences/fields';
import { renderTemplate } from '../sequences/render';
import { applyRules, type Line } from './apply_rules';
import type { BatchWriter, WriterContext, WriterLead, WrittenLead } from './port';
import { joinSentences, normalise, splitSentences, type Break } from './sentences';

/** A template sentence that is one placeholder and nothing else (a trailing mark allowed): the field is its source. */
const LONE_PLACEHOLDER = /^\{\{\s*([^{}]+?)\s*\}\}[.,!?]?$/;

type TemplatePiece = { template: string; brk: Break; lone: string | null };
type CompiledStep = { step: number; subject: string | null; delay: number; pieces: TemplatePiece[] };

function compile(ctx: WriterContext): CompiledStep[] {
  return ctx.steps.map((s, i) => ({
    step: i + 1,
    subject: s.subject,
    delay: s.delay_days,
    pieces: splitSentences(s.body).map((p) => ({ template: p.text, brk: p.brk, lone: LONE_PLACEHOLDER.exec(p.text)?.[1] ?? null })),
  }));
}

/** Sentences of the agency docs, normalised: a template sentence found there verbatim cites the docs. */
const docSentences = (docs: string) => new Set(splitSentences(docs).map((p) => normalise(p.text)));

function writeStep(ctx: WriterContext, docs: Set<string>, step: CompiledStep, values: WriterLead['values']): Line[] {
  const sequence: SentenceSource = { kind: 'sequence', ref: `step ${step.step}` };
  const lines: Line[] = [];
  for (const piece of step.pieces) {
    const rendered = renderTemplate(piece.template, values);
    let source: SentenceSource | null;
    if (rendered.missing.length) source = null;
    else if (piece.lone && piece.lone !== SENDER_NAME) source = { kind: 'field', ref: piece.lone };
    else if (docs.has(normalise(rendered.text))) source = { kind: 'docs', ref: 'agency_docs' };
    else source = sequence;
    // A field value may hold several sentences (a long hook): each is a sentence with the field as its source.
    splitSentences(rendered.text).forEach((p, i) => lines.push({ text: p.text, brk: i === 0 ? piece.brk : p.brk, source }));
  }
  const signature = ctx.playbook?.signature?.trim();
  const last = step.pieces.at(-1);
  // The first mail signs with the playbook's signature where the template signs with the bare sender name.
  if (step.step === 1 && signature && last?.lone === SENDER_NAME) {
    const brk = lines.at(-1)!.brk;
    lines.pop();
    const source: SentenceSource = { kind: 'playbook', ref: `v${ctx.playbook!.version}` };
    splitSentences(signature).forEach((p, i) => lines.push({ text: p.text, brk: i === 0 ? brk : p.brk, source }));
  }
  return lines;
}

export function writeLead(ctx: WriterContext, compiled: CompiledStep[], docs: Set<string>, lead: WriterLead): WrittenLead {
  const used = new Set<string>();
  const mails: WrittenMail[] = compiled.map((step) => {
    const lines = applyRules(ctx.rules, step.step, writeStep(ctx, docs, step, lead.values), used);
    return {
      step: step.step,
      subject: step.subject === null ? null : renderTemplate(step.subject, lead.values).text,
      delay_days: step.delay,
      sentences: lines.map((l) => ({ text: l.text, source: l.source })),
      body: joinSentences(lines),
    };
  });
  return { leadId: lead.id, mails, rulesUsed: [...used].sort() };
}

export const offlineWriter: BatchWriter = {
  async write(ctx, leads) {
    const compiled = compile(ctx);
    const docs = docSentences(ctx.agencyDocs);
    return leads.map((lead) => writeLead(ctx, compiled, docs, lead));
  },
};
