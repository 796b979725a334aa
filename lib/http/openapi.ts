import { z } from '@hono/zod-openapi';

// Shared OpenAPI pieces: the error envelope, offset pagination, and response helpers for route files.
export const ErrorDetail = z
  .object({
    path: z.string().openapi({ description: 'where: a query or path parameter, a body field (`previous_messages.3.role`) or `body`' }),
    message: z.string(),
  })
  .openapi('ErrorDetail');

export const ErrorSchema = z
  .object({
    error: z.object({
      code: z.string().openapi({ description: 'stable machine-readable code, e.g. `validation_error`, `insufficient_scope`' }),
      message: z.string().openapi({ description: 'for a validation_error it starts with the first problem\'s path: `limit: …`' }),
      details: z
        .array(ErrorDetail)
        .optional()
        .openapi({ description: 'validation_error from request validation: every problem (at most 50), the first being the one the message names' }),
    }),
  })
  .openapi('Error', {
    example: {
      error: {
        code: 'validation_error',
        message: 'classification: Invalid option: expected one of "hot"|"warm"|"cold"|"not_interested"|"ooo"',
        details: [
          { path: 'classification', message: 'Invalid option: expected one of "hot"|"warm"|"cold"|"not_interested"|"ooo"' },
          { path: 'limit', message: 'Too big: expected number to be <=100' },
        ],
      },
    },
  });

export const PaginationMeta = {
  count: z.number().int(),
  total_count: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
  has_more: z.boolean(),
};

export function paginationMeta(count: number, total: number, limit: number, offset: number) {
  return { count, total_count: total, limit, offset, has_more: offset + count < total };
}

/** `limit`/`offset` query parameters with the bounds of one list (400 validation_error outside them). */
export function pageQuery(defaultLimit: number, maxLimit: number) {
  return {
    limit: z.coerce.number().int().min(1).max(maxLimit).default(defaultLimit).openapi({ description: `1..${maxLimit}, default ${defaultLimit}` }),
    offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  };
}

export const UuidParam = z.object({ id: z.uuid() });

const err = (description: string) => ({ description, content: { 'application/json': { schema: ErrorSchema } } });

/** The refusals every authenticated route can give, plus the route's own. */
export function errors(...extra: Array<[number, string]>) {
  const base: Record<number, ReturnType<typeof err>> = {
    400: err('validation_error'),
    401: err('unauthorized'),
    403: err('insufficient_scope'),
    429: err('rate_limit_exceeded / ip_rate_limit_exceeded'),
  };
  for (const [status, description] of extra) base[status] = err(description);
  return base;
}

export const json = <T extends z.ZodType>(schema: T, description = 'OK') => ({
  description,
  content: { 'application/json': { schema } },
});

export const jsonBody = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

