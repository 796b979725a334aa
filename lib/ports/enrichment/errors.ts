// The failure that is not worth retrying soon (a refused key, a malformed answer, the simulation's `fail-`
// domains). The port's EnrichmentRetryLater (429/5xx, timeouts) is the one to retry; callers treat this one as the
// lead's item failing, charge nothing for it, and go on with the next lead.
export class EnrichmentFailed extends Error {
  override readonly name = 'EnrichmentFailed';
  constructor(
    message: string,
    readonly provider: string,
  ) {
    super(message);
  }
}
