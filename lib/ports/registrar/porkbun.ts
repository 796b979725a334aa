// Porkbun (https://porkbun.com/api/json/v3/documentation) as the production registrar: every call is a POST under
// PORKBUN_API_URL with the key pair in the JSON body. check: /domain/checkDomain/{domain} ({ response: { avail:
// "yes"|"no", price: "9.73" } }); buy: /domain/create/{domain} with { cost: <cents>, agreeToTerms: "yes" }, after
// /domain/listAll says the account does not already hold it, so a crash between buying and recording never buys
// twice. The order reference also travels as an Idempotency-Key header. A provider failure is an outcome, never an
// exception; no message carries a key.
import { apiUrl, ProviderApiError, redact, requestJson } from '../../providers/request';
import { isDomainName, normalizeDomain } from './sim';
import type { BuyInput, BuyResult, DomainQuote, Registrar } from './port';

export const PORKBUN_TIMEOUT_MS = 20_000;
/** Porkbun's listAll pages hold up to 1,000 domains; more pages than this is not an account we expect to run. */
const MAX_LIST_PAGES = 50;
const LIST_PAGE_SIZE = 1_000;

type PorkbunAnswer = { status?: string; message?: string; response?: { avail?: string; price?: string }; domains?: Array<{ domain?: string }>; orderId?: number | string };

/** "9.73" (US dollars) → 973; null when it is not a price. */
export function priceCents(price: unknown): number | null {
  const n = typeof price === 'number' ? price : typeof price === 'string' ? Number(price) : NaN;
  return Number.isFinite(n) && n >= 0 ? Math.round(n * 100) : null;
}

export function createPorkbunRegistrar(opts: { apiKey: string; secretApiKey: string; baseUrl: string; timeoutMs?: number }): Registrar {
  const timeoutMs = opts.timeoutMs ?? PORKBUN_TIMEOUT_MS;
  const hide = (text: string) => redact(redact(text, opts.secretApiKey), opts.apiKey);

  async function post(path: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}): Promise<PorkbunAnswer> {
    const json = await requestJson<PorkbunAnswer>({
      api: 'Porkbun API',
      method: 'POST',
      url: apiUrl(opts.baseUrl, path),
      headers,
      body: { apikey: opts.apiKey, secretapikey: opts.secretApiKey, ...body },
      timeoutMs,
      secret: opts.secretApiKey,
    });
    // Porkbun says ERROR in the body (usually with HTTP 400, which requestJson already turned into a failure).
    if (json?.status !== 'SUCCESS') throw new ProviderApiError(hide(`Porkbun API refused: ${json?.message ?? 'no status'}`), 'Porkbun API', 'rejected', 200, null, null);
    return json;
  }

  const failure = (err: unknown): BuyResult => {
    if (err instanceof ProviderApiError && err.failure === 'rate_limited') {
      return { ok: false, reason: 'rate_limited', detail: hide(err.message), ...(err.retryAfterSec !== null && { retry_after_sec: err.retryAfterSec }) };
    }
    return { ok: false, reason: 'error', detail: hide(err instanceof Error ? err.message : String(err)) };
  };

  async function quote(domain: string): Promise<DomainQuote> {
    const json = await post(`/domain/checkDomain/${encodeURIComponent(domain)}`);
    const available = json.response?.avail === 'yes';
    const price_cents = available ? priceCents(json.response?.price) : null;
    return { domain, available: available && price_cents !== null, price_cents };
  }

  async function accountHolds(domain: string): Promise<boolean> {
    for (let page = 0; page < MAX_LIST_PAGES; page++) {
      const json = await post('/domain/listAll', { start: String(page * LIST_PAGE_SIZE) });
      const domains = Array.isArray(json.domains) ? json.domains : [];
      if (domains.some((d) => normalizeDomain(String(d.domain ?? '')) === domain)) return true;
      if (domains.length < LIST_PAGE_SIZE) return false;
    }
    return false;
  }

  return {
    kind: 'porkbun',

    async check(_deps, domains) {
      const out: DomainQuote[] = [];
      let limited = false;
      // One at a time: Porkbun limits availability checks per key; once it says "not now", the rest wait.
      for (const raw of domains) {
        const domain = normalizeDomain(raw);
        if (limited || !isDomainName(domain)) {
          out.push({ domain, available: false, price_cents: null });
          continue;
        }
        try {
          out.push(await quote(domain));
        } catch (err) {
          limited = err instanceof ProviderApiError && err.failure === 'rate_limited';
          out.push({ domain, available: false, price_cents: null });
        }
      }
      return out;
    },

    async buy(_deps, input: BuyInput): Promise<BuyResult> {
      const domain = normalizeDomain(input.domain);
      if (!isDomainName(domain)) return { ok: false, reason: 'error', detail: `"${input.domain}" is not a valid domain name` };
      try {
        // The account is the record of what was bought: a retry after a crash finds the domain there. Its first
        // price is no longer known; the most the caller accepted stands in for it.
        if (await accountHolds(domain)) return { ok: true, order_id: `porkbun:${domain}`, price_cents: input.maxPriceCents, repeated: true };
        const offer = await quote(domain);
        if (!offer.available || offer.price_cents === null) return { ok: false, reason: 'unavailable', detail: `${domain} is not available at Porkbun` };
        if (offer.price_cents > input.maxPriceCents) {
          return { ok: false, reason: 'price_changed', detail: `${domain} costs ${offer.price_cents} cents at Porkbun, above the accepted ${input.maxPriceCents}` };
        }
        const json = await post(`/domain/create/${encodeURIComponent(domain)}`, { cost: offer.price_cents, agreeToTerms: 'yes' }, { 'Idempotency-Key': input.reference });
        const orderId = json.orderId !== undefined && json.orderId !== null ? String(json.orderId) : `porkbun:${domain}`;
        return { ok: true, order_id: orderId, price_cents: offer.price_cents, repeated: false };
      } catch (err) {
        // A refused create names why; "not available" and a cost mismatch are outcomes the step can act on.
        if (err instanceof ProviderApiError && (err.failure === 'http' || err.failure === 'rejected') && err.status !== null && err.status < 500) {
          const text = `${err.message} ${err.bodySnippet ?? ''}`.toLowerCase();
          if (/not available|unavailable|already registered|taken/.test(text)) return { ok: false, reason: 'unavailable', detail: hide(err.message) };
          if (/cost|price/.test(text)) return { ok: false, reason: 'price_changed', detail: hide(err.message) };
        }
        return failure(err);
      }
    },
  };
}
