// Google Workspace's Admin SDK Directory API (https://developers.google.com/admin-sdk/directory/reference/rest) as the
// production mailbox provider, with an OAuth access token (GOOGLE_WORKSPACE_TOKEN, scopes admin.directory.user and
// admin.directory.domain.readonly) for the customer GOOGLE_WORKSPACE_CUSTOMER (default `my_customer`, the token's own).
// The customer is the one workspace (GET /customer/{customer}/domains names it after its primary domain); a mailbox
// is a user (POST /users) with a random password from crypto.getRandomValues, which is the credential returned. A
// 409 (the address exists) reads the user (GET /users/{email}) and answers it as repeated, without a credential.
// A failure is an outcome; no message carries the token.
import { ApiError } from '../../errors';
import { apiUrl, ProviderApiError, requestJson } from '../../providers/request';
import type { PortDeps } from '../registrar/port';
import type { CreateMailboxInput, CreateMailboxResult, MailboxProvider, Workspace } from './port';

export const GOOGLE_TIMEOUT_MS = 20_000;
const PASSWORD_CHARS = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789!#%+-=?';
const PASSWORD_LENGTH = 24;

type GoogleUser = { id?: string; primaryEmail?: string };
type GoogleDomains = { domains?: Array<{ domainName?: string; isPrimary?: boolean; verified?: boolean }> };

/** A password Google accepts (8–100 characters) from the platform's CSPRNG, without modulo bias. */
export function randomPassword(length = PASSWORD_LENGTH): string {
  const limit = 256 - (256 % PASSWORD_CHARS.length);
  let out = '';
  while (out.length < length) {
    for (const b of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (b < limit && out.length < length) out += PASSWORD_CHARS[b % PASSWORD_CHARS.length];
    }
  }
  return out;
}

export function createGoogleMailboxProvider(opts: { token: string; customer: string; baseUrl: string; timeoutMs?: number }): MailboxProvider {
  const timeoutMs = opts.timeoutMs ?? GOOGLE_TIMEOUT_MS;
  const request = <T>(method: 'GET' | 'POST', path: string, body?: unknown) =>
    requestJson<T>({ api: 'Google Directory API', method, url: apiUrl(opts.baseUrl, path), headers: { Authorization: `Bearer ${opts.token}` }, body, timeoutMs, secret: opts.token });

  function outcome(err: unknown): CreateMailboxResult {
    if (!(err instanceof ProviderApiError)) return { ok: false, reason: 'error', detail: err instanceof Error ? err.message : String(err) };
    const text = `${err.bodySnippet ?? ''}`.toLowerCase();
    // Google answers its per-user quota as 403 with reason userRateLimitExceeded, not only as 429.
    if (err.failure === 'rate_limited' || /ratelimitexceeded|quotaexceeded|rate limit/.test(text)) {
      return { ok: false, reason: 'rate_limited', detail: err.message, ...(err.retryAfterSec !== null && { retry_after_sec: err.retryAfterSec }) };
    }
    if (err.status !== null && err.status >= 400 && err.status < 500) {
      if (/domain not found|not verified|invalid domain|domain_not/.test(text)) return { ok: false, reason: 'domain_not_verified', detail: err.message };
      if (/licen[cs]e|no seats|user limit/.test(text)) return { ok: false, reason: 'no_seats', detail: err.message };
    }
    return { ok: false, reason: 'error', detail: err.message };
  }

  return {
    kind: 'google',

    async listWorkspaces(_deps: PortDeps, _orgId: string): Promise<Workspace[]> {
      let answer: GoogleDomains;
      try {
        answer = await request<GoogleDomains>('GET', `/customer/${encodeURIComponent(opts.customer)}/domains`);
      } catch (err) {
        // The tools that list workspaces answer the provider's trouble as such, not as a crash of ours.
        const retryAfter = err instanceof ProviderApiError && err.retryAfterSec !== null ? { retryAfter: err.retryAfterSec } : {};
        throw new ApiError('provider_error', err instanceof Error ? err.message : 'Google Directory API failed', retryAfter);
      }
      const domains = Array.isArray(answer?.domains) ? answer.domains : [];
      const primary = domains.find((d) => d.isPrimary)?.domainName ?? domains[0]?.domainName ?? opts.customer;
      // Google bills seats per license, not per workspace: the Directory API does not say how many are left.
      return [{ id: opts.customer, name: `${primary} (Google Workspace)`, provider: 'google', seats_left: null }];
    },

    async createMailbox(_deps: PortDeps, input: CreateMailboxInput): Promise<CreateMailboxResult> {
      const address = input.address.trim().toLowerCase();
      if (input.workspaceId !== opts.customer) return { ok: false, reason: 'error', detail: `unknown workspace ${input.workspaceId} (this deployment's Google customer is ${opts.customer})` };
      const password = randomPassword();
      try {
        const user = await request<GoogleUser>('POST', '/users', {
          primaryEmail: address,
          name: { givenName: input.firstName || address.split('@')[0], familyName: input.lastName || '-' },
          password,
          changePasswordAtNextLogin: false,
        });
        return { ok: true, provider_id: String(user?.id ?? address), credential: password, repeated: false };
      } catch (err) {
        if (!(err instanceof ProviderApiError) || err.status !== 409) return outcome(err);
      }
      // 409: the address exists (a retry after a crash, or created by hand): the mailbox is there, its password not ours to know.
      try {
        const user = await request<GoogleUser>('GET', `/users/${encodeURIComponent(address)}`);
        return { ok: true, provider_id: String(user?.id ?? address), credential: null, repeated: true };
      } catch (err) {
        return outcome(err);
      }
    },
  };
}
