import { ApiError } from '../errors';

// The desk's forms, strictly: each problem is one sentence for a 400 page, and nothing is done. The limits are the
// governed-send API's own (functions/leads/sending_schema.ts), so the desk accepts nothing the API would refuse.
export const DESK_BODY_MAX = 40_000;
export const DESK_REASON_MAX = 2_000;

const invalid = (message: string) => new ApiError('validation_error', message);

/** The reply text of "Save edit and send": not blank, at most the API's length. Sent as typed (no trimming). */
export function parseDraftBody(raw: string | undefined): string {
  const body = (raw ?? '').replace(/\r\n/g, '\n');
  if (body.trim() === '') throw invalid('The reply is empty: write the reply to send, or reject the draft.');
  if (body.length > DESK_BODY_MAX) throw invalid(`The reply may have at most ${DESK_BODY_MAX} characters.`);
  return body;
}

/** A reason: required for a rejection, optional for a skip. */
export function parseReason(raw: string | undefined, required: boolean): string {
  const reason = (raw ?? '').trim();
  if (required && reason === '') throw invalid('A rejection needs a reason: say why this draft should not be sent.');
  if (reason.length > DESK_REASON_MAX) throw invalid(`A reason may have at most ${DESK_REASON_MAX} characters.`);
  return reason;
}

/** The fingerprint of the draft text the page showed (see ./pending.ts); a form without it is stale or forged. */
export function parseSeenDraft(raw: string | undefined): string {
  if (!raw || !/^[0-9a-f]{64}$/.test(raw)) throw invalid('The form is incomplete: reload the page and try again.');
  return raw;
}
