// One error type and one envelope for every refusal: { error: { code, message, details? } }.
export const ERROR_STATUS = {
  validation_error: 400,
  unauthorized: 401,
  insufficient_scope: 403,
  feature_not_enabled: 403,
  // The tool server's DNS-rebinding guard (agency-operator.md §1).
  forbidden_host: 403,
  forbidden_origin: 403,
  // The agency gate (agency-operator.md §2, §4).
  studio_not_enabled: 403,
  read_only_key: 403,
  demo_org: 403,
  client_limit_reached: 403,
  not_paying: 403,
  insufficient_credits: 402,
  // Two-step confirm (agency-operator.md §3).
  confirm_token_invalid: 400,
  confirm_token_expired: 410,
  confirm_token_used: 409,
  preview_stale: 409,
  studio_paused: 423,
  // The Studio's own rules (agency-operator.md §4 "Extra error codes").
  dry_run_failed: 409,
  person_confirmation_required: 409,
  confirm_large_required: 409,
  push_gate_closed: 409,
  not_undoable: 409,
  source_missing: 409,
  unpark_refused: 409,
  recipe_invalid: 422,
  // The table-tool bridge (agency-operator.md §7).
  bridge_not_enabled: 403,
  no_usable_row: 422,
  // A two-step import whose preview found nothing to do (agency import_campaigns).
  nothing_to_import: 409,
  not_found: 404,
  method_not_allowed: 405,
  already_sent: 409,
  conflict: 409,
  idempotency_conflict: 409,
  // An organization already has the most webhooks it may have (core §8: 10).
  webhook_limit_reached: 409,
  // Governed send: approve/reject/skip asked of a reply in a state the table has no such transition for.
  no_pending_draft: 409,
  already_skipped: 409,
  draft_pending: 409,
  // The recipient opted out (or is on a never-mail list): no send, approval or follow-up may reach them.
  recipient_opted_out: 409,
  payload_too_large: 413,
  // An inbound reply webhook names a campaign we neither know by its id nor can create (no name given).
  unknown_campaign: 422,
  // An inbound source paused by the owner refuses deliveries (the sending tool retries them later).
  source_paused: 423,
  unsupported_media_type: 415,
  rate_limit_exceeded: 429,
  ip_rate_limit_exceeded: 429,
  send_rate_limit_exceeded: 429,
  lead_recently_contacted: 429,
  crm_write_rate_limited: 429,
  daily_credit_limit_exceeded: 429,
  internal_error: 500,
  provider_error: 502,
  service_unavailable: 503,
  ai_error: 504,
  request_timeout: 504,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

/** One problem of a refused request: where (`limit`, `previous_messages.3.role`, `body`) and what is wrong there. */
export type ErrorDetail = { path: string; message: string };

/**
 * Values a refusal's message states in words, typed for callers that write their own (the review desk's pages).
 * Never part of the API envelope: the message says the same to integrators.
 */
export type ErrorFacts = { sentAt?: Date; nextContactInSec?: number };

export class ApiError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: { retryAfter?: number; body?: Record<string, unknown>; details?: ErrorDetail[]; facts?: ErrorFacts } = {},
  ) {
    super(message);
    this.status = ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new ApiError('not_found', `${what} not found`);

export function envelope(code: string, message: string, body: Record<string, unknown> = {}, details?: ErrorDetail[]) {
  return { error: details ? { code, message, details } : { code, message }, ...body };
}
