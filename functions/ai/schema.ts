import { z } from '@hono/zod-openapi';

// Request and response shapes of the AI endpoints (core §2 Suggestion, §4 AI table). Optional text fields also
// accept null (an integration tool's unmapped field) and mean "not given".

export const MediumEnum = z.enum(['email', 'linkedin', 'whatsapp']);

const optText = (max: number) => z.string().max(max).nullish();

export const PreviousMessage = z
  .strictObject({
    role: z.enum(['outbound', 'reply']).openapi({ description: '`outbound`: a message we sent; `reply`: one the prospect sent' }),
    content: z.string().max(10_000),
  })
  .openapi('PreviousMessage');

export const SuggestBody = z
  .strictObject({
    reply_received: z
      .string()
      .max(20_000)
      .refine((s) => s.trim().length > 0, { message: 'must not be empty' })
      .openapi({ description: "the prospect's reply to answer (quoted earlier thread text is ignored)" }),
    lead_name: optText(200),
    lead_email: z.email().max(320).nullish(),
    company: optText(200),
    campaign_context: optText(10_000).openapi({ description: 'what the campaign offers: facts the answer may use (prices, integrations, customers)' }),
    medium: MediumEnum.default('email'),
    tone: optText(100).openapi({ description: 'free text, e.g. friendly, formal, direct, casual' }),
    previous_messages: z
      .array(PreviousMessage)
      .max(10, { message: 'at most 10 messages' })
      .nullish()
      .openapi({ description: 'the conversation so far, oldest first; at most 10' }),
    client_id: z
      .uuid()
      .nullish()
      .openapi({ description: "beyond the spec: the client whose learned edits to use (an organization-wide key); a client-locked key always uses its own" }),
    sender_name: optText(100)
      .refine((s) => !s || !s.includes('@'), { message: 'a name, not an email address' })
      .openapi({
        description:
          "beyond the spec: who signs the email draft. Without it the name under our last outbound message in previous_messages signs; with neither the draft ends with its closing and the sending tool's signature follows",
      }),
  })
  .openapi('SuggestRequest');

export const SuggestionResponse = z
  .object({
    suggestion: z.string(),
    strategy: z.string().openapi({ description: 'how the reply answers, e.g. propose_meeting_times; `+learned` when a human edit was applied' }),
    confidence: z.number().openapi({ description: '0..1' }),
    medium: MediumEnum,
    model: z.string(),
    credits_used: z.number().int(),
    credits_remaining: z.number().int(),
    suggestion_id: z.string().openapi({ description: 'beyond the spec: pass it to /v1/suggest/feedback' }),
  })
  .openapi('Suggestion');

export const FeedbackBody = z
  .strictObject({
    accepted: z.boolean(),
    original_suggestion: optText(40_000),
    edited_version: optText(40_000).openapi({ description: 'what was (or will be) sent; a version that differs is learned' }),
    medium: MediumEnum.optional().openapi({ description: "default: the suggestion's medium, else email" }),
    client_id: z.uuid().nullish(),
    suggestion_id: z.string().max(100).nullish().openapi({ description: 'the suggestion_id returned by /v1/suggest' }),
  })
  .openapi('SuggestFeedback');

export const FeedbackResponse = z
  .object({
    received: z.boolean(),
    learned: z.boolean(),
    medium: MediumEnum,
    edit_distance: z.number().int().openapi({ description: 'Levenshtein distance from original_suggestion to edited_version' }),
  })
  .openapi('SuggestFeedbackResult');

export const IdempotencyHeader = z.object({
  'idempotency-key': z
    .string()
    .optional()
    .openapi({ param: { name: 'idempotency-key', in: 'header' }, description: 'a retry with the same key returns the first answer and spends no second credit' }),
});
