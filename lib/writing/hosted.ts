// The hosted adapter of the writer port: one model call per lead asking for JSON sentences, each with its source.
// The answer is checked against what the lead and the context really hold: a sentence whose source is missing or
// names something that does not exist (a field the lead has no value for, an unknown rule) gets source null, so
// review_approve refuses it (source_missing) instead of a person trusting an invented citation. A call that fails or
// answers no usable JSON fails the round with 504 ai_error; nothing is written or charged (one transaction).
import { z } from 'zod';
import type { SentenceSource, WrittenMail } from '../../schema';
import type { HostedConfig } from '../ai/hosted';
import { ApiError } from '../errors';
import { ruleText } from '../learning/rules';
import type { BatchWriter, WriterContext, WriterLead, WrittenLead } from './port';
import { joinSentences, type Break, type Piece } from './sentences';

const CONCURRENCY = 4;
const MAX_TOKENS = 2048;

const Answer = z.object({
  mails: z.array(
    z.object({
      step: z.number().int(),
      subject: z.string().nullable().optional(),
      sentences: z.array(
        z.object({
          text: z.string(),
          source: z.object({ kind: z.string(), ref: z.string() }).nullable().optional(),
          brk: z.enum(['', 'line', 'paragraph']).optional(),
        }),
      ),
    }),
  ),
});

const SYSTEM = [
  'You write the mails of a cold email sequence for one prospect. Reply with JSON only:',
  '{"mails":[{"step":1,"subject":string|null,"sentences":[{"text":string,"source":{"kind":string,"ref":string},"brk":""|"line"|"paragraph"}]}]}.',
  'One mail per sequence step, following its template. Every sentence names where it comes from: kind "field" with ref the',
  'lead field it states (e.g. "hook"), "sequence" with ref "step N" for the template\'s own words, "playbook" with ref "v<version>"',
  'for the signature, "docs" with ref "agency_docs", "rule" with ref the rule id for a sentence a rule shaped.',
  'State no fact that is not in the lead\'s fields. Apply every rule. brk: the break before the sentence.',
].join(' ');

/** One lead's mails from the hosted model; past this the call is aborted (504 ai_error, nothing written). */
const WRITE_TIMEOUT_MS = 30_000;

function request(cfg: HostedConfig, user: string): { url: string; headers: Record<string, string>; body: unknown } {
  const base = (cfg.baseUrl ?? (cfg.provider === 'openai' ? 'https://api.openai.com/v1' : 'https://api.anthropic.com')).replace(/\/+$/, '');
  if (cfg.provider === 'openai') {
    return {
      url: `${base}/chat/completions`,
      headers: { authorization: `Bearer ${cfg.apiKey}`, 'content-type': 'application/json' },
      body: { model: cfg.model, messages: [{ role: 'system', content: SYSTEM }, { role: 'user', content: user }], response_format: { type: 'json_object' }, temperature: 0, max_tokens: MAX_TOKENS },
    };
  }
  return {
    url: `${base}/v1/messages`,
    headers: { 'x-api-key': cfg.apiKey, 'anthropic-version': '2023-06-01', 'content-type': 'application/json' },
    body: { model: cfg.model, max_tokens: MAX_TOKENS, temperature: 0, system: SYSTEM, messages: [{ role: 'user', content: user }] },
  };
}

function contentOf(provider: HostedConfig['provider'], body: any): string | null {
  if (provider === 'openai') return typeof body?.choices?.[0]?.message?.content === 'string' ? body.choices[0].message.content : null;
  if (!Array.isArray(body?.content)) return null;
  return body.content.filter((x: any) => x?.type === 'text').map((x: any) => String(x.text)).join('') || null;
}

/** The source as claimed, if it names something this lead and context really have; else null. */
function checkedSource(ctx: WriterContext, lead: WriterLead, claimed: { kind: string; ref: string } | null | undefined): SentenceSource | null {
  if (!claimed) return null;
  const { kind, ref } = claimed;
  const ok =
    (kind === 'field' && typeof lead.values[ref] === 'string' && lead.values[ref]!.trim() !== '') ||
    (kind === 'sequence' && /^step (\d+)$/.test(ref) && Number(ref.slice(5)) >= 1 && Number(ref.slice(5)) <= ctx.steps.length) ||
    (kind === 'playbook' && ctx.playbook !== null && ref === `v${ctx.playbook.version}`) ||
    (kind === 'docs' && ref === 'agency_docs' && ctx.agencyDocs.trim() !== '') ||
    (kind === 'rule' && ctx.rules.some((r) => r.id === ref));
  return ok ? ({ kind, ref } as SentenceSource) : null;
}

const BREAKS: Record<string, Break> = { '': '', line: '\n', paragraph: '\n\n' };

export function mailsFromAnswer(ctx: WriterContext, lead: WriterLead, answer: unknown): WrittenLead {
  const parsed = Answer.safeParse(answer);
  if (!parsed.success || parsed.data.mails.length !== ctx.steps.length) throw new ApiError('ai_error', 'the writing model answered no usable mails (one per sequence step, sentences with sources)');
  const used = new Set<string>();
  const mails: WrittenMail[] = ctx.steps.map((step, i) => {
    const m = parsed.data.mails.find((x) => x.step === i + 1) ?? parsed.data.mails[i];
    const lines = m.sentences
      .filter((s) => s.text.trim() !== '')
      .map((s, k) => {
        const source = checkedSource(ctx, lead, s.source);
        if (source?.kind === 'rule') used.add(source.ref);
        return { text: s.text.trim(), source, brk: k === 0 ? '' : (BREAKS[s.brk ?? ''] ?? '') } as Piece & { source: SentenceSource | null };
      });
    return { step: i + 1, subject: step.subject === null ? null : (m.subject ?? null), delay_days: step.delay_days, sentences: lines.map((l) => ({ text: l.text, source: l.source })), body: joinSentences(lines) };
  });
  return { leadId: lead.id, mails, rulesUsed: [...used].sort() };
}

export function createHostedWriter(cfg: HostedConfig): BatchWriter {
  const doFetch: typeof fetch = cfg.fetch ?? ((input, init) => fetch(input, init));
  const writeOne = async (ctx: WriterContext, lead: WriterLead): Promise<WrittenLead> => {
    const user = JSON.stringify({
      sequence: ctx.steps.map((s, i) => ({ step: i + 1, subject: s.subject, body: s.body })),
      lead: lead.values,
      sender_name: ctx.senderName,
      playbook: ctx.playbook,
      agency_docs: ctx.agencyDocs,
      rules: ctx.rules.map((r) => ({ id: r.id, rule: ruleText(r.spec) })),
    });
    const req = request(cfg, user);
    let content: string | null;
    try {
      // Bounded: the confirm's transaction holds the batch while the round is written.
      const res = await doFetch(req.url, { method: 'POST', headers: req.headers, body: JSON.stringify(req.body), signal: AbortSignal.timeout(WRITE_TIMEOUT_MS) });
      if (!res.ok) throw new ApiError('ai_error', `the writing model (${cfg.provider}) returned HTTP ${res.status}`);
      content = contentOf(cfg.provider, JSON.parse(await res.text()));
    } catch (err) {
      if (err instanceof ApiError) throw err;
      throw new ApiError('ai_error', `the writing model (${cfg.provider}) could not be reached: ${(err as Error)?.message ?? String(err)}`);
    }
    const start = content?.indexOf('{') ?? -1;
    const end = content?.lastIndexOf('}') ?? -1;
    let json: unknown = null;
    try {
      json = start >= 0 && end > start ? JSON.parse(content!.slice(start, end + 1)) : null;
    } catch {
      json = null;
    }
    return mailsFromAnswer(ctx, lead, json);
  };
  return {
    async write(ctx, leads) {
      const out: WrittenLead[] = new Array(leads.length);
      let next = 0;
      const worker = async () => {
        while (next < leads.length) {
          const i = next++;
          out[i] = await writeOne(ctx, leads[i]);
        }
      };
      await Promise.all(Array.from({ length: Math.min(CONCURRENCY, leads.length) }, worker));
      return out;
    },
  };
}
