import { z } from '@hono/zod-openapi';
import { CLASSIFICATIONS } from '../../lib/classify/types';
import { PaginationMeta, pageQuery } from '../../lib/http/openapi';

export const Classification = z.enum(CLASSIFICATIONS);

export const Lead = z
  .object({
    email: z.string(),
    name: z.string().nullable().openapi({ description: 'null when the prospect gave no name (never the email)' }),
    campaign_id: z.uuid(),
    campaign_name: z.string(),
    client_name: z.string().nullable(),
    classification: Classification.nullable(),
    reply_count: z.number().int(),
    last_reply_at: z.string().nullable(),
  })
  .openapi('Lead');

export const ListLeadsQuery = z.object({
  campaign_id: z.uuid().optional(),
  classification: Classification.optional(),
  since: z.iso.datetime({ offset: true }).optional().openapi({ description: 'only leads with replies after this time' }),
  ...pageQuery(50, 100),
});

export const ListLeadsResponse = z.object({ leads: z.array(Lead), ...PaginationMeta }).openapi('LeadList');

export const Reply = z
  .object({
    id: z.uuid(),
    from_email: z.string(),
    from_name: z.string().nullable(),
    campaign_name: z.string(),
    body: z.string(),
    classification: Classification.nullable(),
    received_at: z.string(),
  })
  .openapi('Reply');

export const ThreadEntry = z.object({ role: z.string(), content: z.string() }).openapi('ThreadEntry');

/** A reply read on its own keeps the message as received: `body` is its text, `body_html` its HTML part (or null). */
export const ReplyDetail = Reply.extend({
  body_html: z.string().nullable().openapi({ description: 'the HTML part of the message as received, or null for a plain-text message' }),
}).openapi('ReplyDetail');

export const GetReplyResponse = z.object({ reply: ReplyDetail, thread: z.array(ThreadEntry), thread_length: z.number().int() });

export const UpdateLeadBody = z
  .strictObject({
    classification: Classification.optional(),
    notes: z.string().max(10_000).optional(),
  })
  .refine((b) => b.classification !== undefined || b.notes !== undefined, { message: 'give classification and/or notes' })
  .openapi('UpdateLead');

export const UpdateLeadResponse = z.object({
  updated: z.boolean(),
  email: z.string(),
  classification: Classification.nullable(),
  updated_at: z.string(),
});
