import { CLASSIFICATIONS, isClassification, type HostedResult } from './types';

export interface HostedConfig {
  baseUrl: string;
  apiKey: string;
  model: string;
  timeoutMs?: number;
  fetch?: typeof fetch;
}

const SYSTEM_PROMPT = `You classify replies to B2B cold emails. Classify only the prospect's own new text; ignore any quoted earlier thread.
Labels:
- hot: explicit interest in a call, meeting, demo, pricing/quote, pilot/trial, or a concrete next step; also additions to an agreed meeting (invite a colleague, ask for the agenda, move the slot).
- warm: positive or curious but non-committal (product questions, "send more info", "reach out next quarter", "not now but keep in touch").
- cold: neutral or unclear, wrong person, referral to someone else, "who are you", "how did you get my email".
- not_interested: explicit no, unsubscribe/remove me/stop emailing, hostile, or already has a solution and is happy.
- ooo: out-of-office, vacation, leave or sick-leave auto-replies (any language). A human who is away but explicitly asks for a call is hot.
Any unsubscribe/opt-out request is not_interested.
Answer with JSON only: {"classification": one of ${CLASSIFICATIONS.map((c) => `"${c}"`).join(', ')}, "confidence": number between 0 and 1}.`;

export async function classifyHosted(text: string, cfg: HostedConfig): Promise<HostedResult> {
  const doFetch = cfg.fetch ?? fetch;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), cfg.timeoutMs ?? 8000);
  try {
    const res = await doFetch(`${cfg.baseUrl.replace(/\/+$/, '')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${cfg.apiKey}` },
      body: JSON.stringify({
        model: cfg.model,
        temperature: 0,
        response_format: { type: 'json_object' },
        messages: [
          { role: 'system', content: SYSTEM_PROMPT },
          { role: 'user', content: text },
        ],
      }),
      signal: controller.signal,
    });
    // Reading the body stays under the same abort signal, so a stalled stream also times out.
    const raw = await res.text();
    if (!res.ok) throw new Error(`hosted classifier HTTP ${res.status}: ${raw.slice(0, 200)}`);
    let content: unknown;
    try {
      content = JSON.parse(raw)?.choices?.[0]?.message?.content;
    } catch {
      throw new Error('hosted classifier returned a non-JSON response body');
    }
    if (typeof content !== 'string') throw new Error('hosted classifier response has no message content');
    let answer: { classification?: unknown; confidence?: unknown };
    try {
      answer = JSON.parse(content);
    } catch {
      throw new Error('hosted classifier answer is not valid JSON');
    }
    if (!isClassification(answer?.classification)) {
      throw new Error(`hosted classifier returned unknown label ${JSON.stringify(answer?.classification)}`);
    }
    const c = Number(answer.confidence);
    const confidence = Number.isFinite(c) ? Math.min(1, Math.max(0, c)) : 0.5;
    return { classification: answer.classification, confidence };
  } catch (err) {
    if (controller.signal.aborted) throw new Error(`hosted classifier timed out after ${cfg.timeoutMs ?? 8000} ms`);
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
