import { z } from '@hono/zod-openapi';
import { SUBSCRIBABLE_EVENTS } from '../../lib/events/outbox';
import { PaginationMeta, pageQuery } from '../../lib/http/openapi';

export const WebhookIdParam = z.object({
  id: z.string().min(1).max(100).openapi({ param: { name: 'id', in: 'path' }, example: 'wh-3Yk2hQpZx8N4tVbL1cRw7a' }),
});

export const LastError = z
  .object({
    status: z.number().int().nullable().openapi({ description: 'HTTP status of the failed attempt; null for a timeout, network error or refused address' }),
    body: z.string().nullable().openapi({ description: 'first 300 characters of the response body' }),
    error: z.string().nullable(),
    at: z.string(),
  })
  .openapi('WebhookLastError');

export const Webhook = z
  .object({
    id: z.string().openapi({ description: 'prefix wh-' }),
    name: z.string(),
    url: z.string(),
    events: z.array(z.string()),
    is_active: z.boolean(),
    failure_count: z.number().int().openapi({ description: 'consecutive failed delivery attempts; 10 disable the webhook' }),
    disabled_reason: z.string().nullable().openapi({ description: 'set when the webhook was disabled automatically' }),
    client_id: z.uuid().nullable().openapi({ description: "set when a client-locked key created it: it receives only that client's events" }),
    created_at: z.string(),
    last_delivery_at: z.string().nullable().openapi({ description: 'the latest successful delivery (2xx answer), automatic or manual' }),
    last_attempt_at: z.string().nullable().openapi({ description: 'the latest delivery attempt, successful or not' }),
    last_error: LastError.nullable().openapi({ description: 'the latest failed delivery' }),
  })
  .openapi('Webhook');

const WebhookName = z.string().trim().min(1).max(100);
// Checked by the outbound URL policy (lib/net/ssrf.ts), whose refusals say exactly what is wrong.
const WebhookUrl = z.string().trim().min(1).max(2048).openapi({ format: 'uri', description: 'https; plain http and private addresses only with ALLOW_PRIVATE_WEBHOOK_URLS=true' });
const WebhookEvents = z.array(z.enum(SUBSCRIBABLE_EVENTS)).min(1).max(SUBSCRIBABLE_EVENTS.length * 2);

export const CreateWebhookBody = z.strictObject({ name: WebhookName, url: WebhookUrl, events: WebhookEvents }).openapi('CreateWebhook');

export const CreateWebhookResponse = z
  .object({ webhook: Webhook, secret: z.string().openapi({ description: 'whsec_…; shown only in this response' }) })
  .openapi('CreatedWebhook');

export const UpdateWebhookBody = z
  .strictObject({
    name: WebhookName.optional(),
    url: WebhookUrl.optional().openapi({ description: 'checked like at creation; the secret stays, pending retries go to the new address' }),
    events: WebhookEvents.optional().openapi({ description: 'replaces the subscribed kinds; events already dispatched are still delivered' }),
    is_active: z.boolean().optional().openapi({ description: 'true re-enables: failure_count goes to 0, disabled_reason is cleared, the secret stays' }),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'give name, url, events and/or is_active' })
  .openapi('UpdateWebhook');

export const WebhookResponse = z.object({ webhook: Webhook });
export const ListWebhooksResponse = z.object({ webhooks: z.array(Webhook) }).openapi('WebhookList');
export const DeleteWebhookResponse = z.object({ deleted: z.boolean() });

export const ManualDelivery = z
  .object({
    delivered: z.boolean().openapi({ description: 'the endpoint answered 2xx' }),
    event_id: z.string(),
    event: z.string(),
    http_status: z.number().int().nullable(),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    response_body: z.string().nullable().openapi({ description: 'first 300 characters of the response body' }),
  })
  .openapi('ManualDelivery');

export const RotateSecretBody = z
  .strictObject({
    previous_secret_expires_in_hours: z
      .number()
      .int()
      .min(0)
      .max(168)
      .optional()
      .openapi({ description: 'how long the replaced secret keeps signing beside the new one; default 24, 0 = stops at once' }),
  })
  .openapi('RotateWebhookSecret');

export const RotateSecretResponse = z
  .object({
    webhook: Webhook,
    secret: z.string().openapi({ description: 'the new whsec_… secret; shown only in this response' }),
    previous_secret_expires_at: z.string().nullable().openapi({ description: 'until when deliveries also carry a signature with the replaced secret' }),
  })
  .openapi('RotatedWebhookSecret');

export const RedeliverBody = z.strictObject({ event_id: z.string().min(1).max(100) }).openapi('Redeliver');

export const AttemptsQuery = z.object({ event_id: z.string().min(1).max(100).optional(), ...pageQuery(50, 100) });

export const Attempt = z
  .object({
    id: z.uuid(),
    delivery_id: z.uuid(),
    event_id: z.string(),
    event: z.string(),
    trigger: z.enum(['automatic', 'test', 'redeliver']),
    attempt: z.number().int().nullable().openapi({ description: 'automatic attempt number (1 = first try); null for manual ones' }),
    status: z.enum(['succeeded', 'failed']),
    http_status: z.number().int().nullable(),
    duration_ms: z.number().int(),
    error: z.string().nullable(),
    at: z.string(),
    delivery_status: z.enum(['pending', 'succeeded', 'failed']),
    next_attempt_at: z.string().nullable().openapi({ description: 'when the next automatic attempt is due, while the delivery is pending' }),
  })
  .openapi('WebhookAttempt');

export const AttemptsResponse = z.object({ deliveries: z.array(Attempt), ...PaginationMeta }).openapi('WebhookAttemptList');
