// Shared contract between the suggestion engines (offline heuristics, hosted LLMs)
// and whatever calls them (the /v1/suggest route). Kept free of runtime code so
// both Workers and Node can import it without side effects.

export type Medium = 'email' | 'linkedin' | 'whatsapp';

export interface PreviousMessage {
  role: 'outbound' | 'reply';
  content: string;
}

export interface SuggestInput {
  reply_received: string;
  lead_name?: string | null;
  lead_email?: string | null;
  company?: string | null;
  campaign_context?: string | null;
  /** Defaults to 'email' when absent. */
  medium?: Medium | null;
  /** Free text ("friendly", "formal", "direct", "casual", ...). */
  tone?: string | null;
  /** Oldest first; the route caps this at 10 items. */
  previous_messages?: PreviousMessage[] | null;
  /** Who signs the answer. Without it the name under our last outbound message in the thread is used, if any. */
  sender_name?: string | null;
}

export interface Suggestion {
  suggestion: string;
  strategy: string;
  /** 0..1 */
  confidence: number;
  medium: Medium;
  model: string;
}

/**
 * A draft a human edited before sending. `original` is what the engine proposed,
 * `edited` what was actually sent; the difference is the feedback we learn from.
 */
export interface LearnedExample {
  replyText: string;
  classification?: string;
  original: string;
  edited: string;
  medium: string;
}

export interface SuggestContext {
  learned: LearnedExample[];
  /** Injected so drafts (proposed slots, follow-up dates) are reproducible. */
  now: Date;
  signal?: AbortSignal;
}

/** What a formula question may read about one lead: its fields by name (the recipe's question step). */
export type AskFacts = Readonly<Record<string, string | number | boolean>>;

/** An answer to a question about a lead; an empty answer means "not known from these facts" (0 confidence). */
export interface Answer {
  answer: string;
  /** 0..1 */
  confidence: number;
}

export interface AiEngine {
  readonly model: string;
  suggest(input: SuggestInput, ctx: SuggestContext): Promise<Suggestion>;
  /**
   * Answers a question about a lead from its facts only (formula questions). Equal inputs → equal answers offline.
   * Optional so an engine written for suggestions alone (a test double) stays one: callers fall back to the
   * offline answer (lib/ai/index.ts askWith).
   */
  ask?(question: string, facts: AskFacts, ctx?: { signal?: AbortSignal }): Promise<Answer>;
}

export const MEDIA: readonly Medium[] = ['email', 'linkedin', 'whatsapp'];

export function normalizeMedium(m: unknown): Medium {
  return typeof m === 'string' && (MEDIA as readonly string[]).includes(m) ? (m as Medium) : 'email';
}

/** Error every engine throws; the route maps it to 504 `ai_error` and spends no credit. */
export class AiEngineError extends Error {
  readonly code: 'http_error' | 'malformed' | 'timeout' | 'aborted' | 'network' | 'internal';
  readonly status?: number;
  constructor(code: AiEngineError['code'], message: string, opts?: { status?: number; cause?: unknown }) {
    super(message, opts?.cause !== undefined ? { cause: opts.cause } : undefined);
    this.name = 'AiEngineError';
    this.code = code;
    this.status = opts?.status;
  }
}
