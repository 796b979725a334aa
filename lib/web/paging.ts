import { ApiError } from '../errors';

const MAX_PAGE = 10_000;

/** `?page=N` of a page list (portal, desk), strictly: absent is 1; anything but 1..10,000 is a sentence for a 400 page. */
export function parsePageNumber(raw: string | undefined): number {
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(n) || n < 1 || n > MAX_PAGE) throw new ApiError('validation_error', `Page must be a whole number from 1 to ${MAX_PAGE}.`);
  return n;
}
