import { z } from '@hono/zod-openapi';
import { CLASSIFICATIONS } from '../../lib/classify/types';
import { PaginationMeta, pageQuery } from '../../lib/http/openapi';
import { REPLY_STATUSES } from '../../lib/leads/list_replies';
import { LISTING_STATUSES } from '../../lib/leads/reply_listing';

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

/** An item of `GET /v1/replies`: the Reply plus its lead, its campaign and what became of it. */
export const ReplyListItem = Reply.extend({
  lead_id: z.uuid(),
  campaign_id: z.uuid(),
  status: z.enum(REPLY_STATUSES).openapi({ description: '`unanswered`, `queued` (a draft waits for review), `sent` (answered) or `skipped`' }),
  body: z.string().openapi({ description: "the prospect's own text, quoted thread stripped; GET /v1/replies/{id} has the message as received" }),
}).openapi('ReplyListItem');

export const ListRepliesQuery = z.object({
  status: z
    .enum(LISTING_STATUSES)
    .optional()
    .openapi({
      description:
        '`unanswered`, `sent` or `skipped` filter the reply list (scope leads.read; absent = every reply). `queued` (alias `in_review`) is the review queue: the pending drafts with the reply they answer, oldest first (scope replies.approve)',
    }),
  client_id: z
    .uuid()
    .optional()
    .openapi({ description: "reply list and review queue: only replies to this client's campaigns; a client of another organization (or, for a client-locked key, another client) is 404" }),
  campaign_id: z.uuid().optional().openapi({ description: 'reply list only' }),
  since: z.iso.datetime({ offset: true }).optional().openapi({ description: 'reply list only: replies received after this time' }),
  ...pageQuery(50, 100),
});

export const ReplyListResponse = z.object({ replies: z.array(ReplyListItem), ...PaginationMeta }).openapi('ReplyList');

export const ThreadEntry = z.object({ role: z.string(), content: z.string() }).openapi('ThreadEntry');

/** A reply read on its own keeps the message as received: `body` is its text, `body_html` its HTML part (or null). */
export const ReplyDetail = Reply.extend({
  body_html: z.string().nullable().openapi({ description: 'the HTML part of the message as received, or null for a plain-text message' }),
}).openapi('ReplyDetail');

export const GetReplyResponse = z.object({ reply: ReplyDetail, thread: z.array(ThreadEntry), thread_length: z.number().int() });

export const UpdateLeadBody = z
  .strictObject({
    classification: Classification.optional(),
    notes: z
      .string()
      .max(10_000)
      .refine((t) => t.trim().length > 0, { message: 'must not be empty (a note is added to the lead\'s notes, which are never replaced or cleared)' })
      .optional()
      .openapi({ description: "a note to add to the lead's notes (at = now, by = the key's name): the list the CRM API shows" }),
  })
  .refine((b) => b.classification !== undefined || b.notes !== undefined, { message: 'give classification and/or notes' })
  .openapi('UpdateLead');

export const UpdateLeadResponse = z.object({
  updated: z.boolean(),
  email: z.string(),
  classification: Classification.nullable(),
  updated_at: z.string(),
});
