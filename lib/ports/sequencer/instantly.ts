// Instantly API v2 (https://developer.instantly.ai/api/v2) as the production sequencer: Bearer key, base
// INSTANTLY_API_URL + /api/v2. Instantly has no idempotency key, so the campaign's name carries the reference
// ("<name> [ref:<reference>]") and ensureCampaign first looks for it (GET /campaigns?search=), which makes a retry
// after a crash find the campaign instead of creating a second one.
//
// Mails are personalised per lead, while an Instantly sequence is one template for the campaign: the template's
// steps are {{stepN_subject}} / {{stepN_body}} and every lead carries its own texts as custom variables. Instantly
// holds the delays per campaign step, not per lead: the template uses SEQUENCE_DELAYS (docs/studio/sequencer.md).
// A provider failure is an outcome, never an exception; no message carries the key.
import { apiUrl, ProviderApiError, redact, requestJson } from '../../providers/request';
import type { PortDeps } from '../registrar/port';
import type { ActivateResult, AddLeadsResult, EnsureCampaignInput, EnsureCampaignResult, Sequencer, SequencerFailure, SequencerLead } from './port';
import { leadsProblem, normalizeMailboxes } from './sim';

export const INSTANTLY_SEQUENCER_TIMEOUT_MS = 20_000;
/** The template's steps and the days before each (step 1 at once): the most a Studio sequence pushes. */
export const SEQUENCE_DELAYS = [0, 3, 4, 7, 7];
const SEARCH_LIMIT = 100;

type CampaignItem = { id?: string; name?: string };
type BulkAnswer = { leads_uploaded?: number; created_leads?: unknown[] };

export const referencedName = (name: string, reference: string) => `${name.trim().slice(0, 200)} [ref:${reference}]`;

/** Instantly's minimal required schedule: weekdays, office hours, UTC. The owner adjusts it in Instantly. */
const schedule = () => ({
  schedules: [{ name: 'Studio weekdays', timing: { from: '09:00', to: '17:00' }, days: { 1: true, 2: true, 3: true, 4: true, 5: true }, timezone: 'Etc/GMT' }],
});

const sequences = () => [
  {
    steps: SEQUENCE_DELAYS.map((delay, i) => ({
      type: 'email',
      delay,
      variants: [{ subject: `{{step${i + 1}_subject}}`, body: `{{step${i + 1}_body}}` }],
    })),
  },
];

/** A lead's mails as custom variables (values must be scalars in Instantly): stepN_subject, stepN_body. */
export function leadVariables(lead: SequencerLead): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const m of [...lead.mails].sort((a, b) => a.step - b.step)) {
    vars[`step${m.step}_subject`] = m.subject ?? '';
    vars[`step${m.step}_body`] = m.body;
  }
  return vars;
}

export function createInstantlySequencer(opts: { apiKey: string; baseUrl: string; timeoutMs?: number }): Sequencer {
  const timeoutMs = opts.timeoutMs ?? INSTANTLY_SEQUENCER_TIMEOUT_MS;
  const call = <T>(method: 'GET' | 'POST', path: string, body?: unknown, query: Record<string, string> = {}) =>
    requestJson<T>({
      api: 'Instantly API',
      method,
      url: apiUrl(opts.baseUrl, `/api/v2${path}`, query),
      headers: { Authorization: `Bearer ${opts.apiKey}` },
      body,
      timeoutMs,
      secret: opts.apiKey,
    });
  // PATCH is not in requestJson's methods; the mailbox update is done with fetch under the same rules.
  async function patch(path: string, body: unknown): Promise<void> {
    const res = await fetch(apiUrl(opts.baseUrl, `/api/v2${path}`).href, {
      method: 'PATCH',
      headers: { Authorization: `Bearer ${opts.apiKey}`, 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    const text = await res.text().catch(() => '');
    if (res.status === 429) {
      const after = Number(res.headers.get('retry-after'));
      throw new ProviderApiError('Instantly API rate-limited the request (HTTP 429)', 'Instantly API', 'rate_limited', 429, Number.isFinite(after) && after >= 0 ? after : null, null);
    }
    if (res.status < 200 || res.status >= 300) {
      throw new ProviderApiError(redact(`Instantly API answered HTTP ${res.status}: ${text.slice(0, 200)}`, opts.apiKey), 'Instantly API', 'http', res.status, null, null);
    }
  }

  const failure = (err: unknown): SequencerFailure => {
    const detail = redact(err instanceof Error ? err.message : String(err), opts.apiKey);
    if (err instanceof ProviderApiError && err.failure === 'rate_limited') {
      return { ok: false, reason: 'rate_limited', detail, ...(err.retryAfterSec !== null && { retry_after_sec: err.retryAfterSec }) };
    }
    return { ok: false, reason: 'error', detail };
  };

  return {
    kind: 'instantly',

    async ensureCampaign(_deps: PortDeps, input: EnsureCampaignInput): Promise<EnsureCampaignResult> {
      if (!input.reference.trim()) return { ok: false, reason: 'error', detail: 'a campaign reference is required' };
      const name = referencedName(input.name, input.reference);
      const mailboxes = normalizeMailboxes(input.mailboxes);
      const limits = { email_list: mailboxes.map((m) => m.address), daily_limit: mailboxes.reduce((s, m) => s + m.daily_cap, 0) };
      try {
        const found = await call<{ items?: CampaignItem[] }>('GET', '/campaigns', undefined, { search: `[ref:${input.reference}]`, limit: String(SEARCH_LIMIT) });
        // search matches substrings: only the exact name with this reference is ours.
        const mine = (found.items ?? []).find((c) => typeof c.id === 'string' && typeof c.name === 'string' && c.name.endsWith(`[ref:${input.reference}]`));
        if (mine?.id) {
          await patch(`/campaigns/${encodeURIComponent(mine.id)}`, limits);
          return { ok: true, provider_campaign_id: mine.id, repeated: true };
        }
        const created = await call<CampaignItem>('POST', '/campaigns', { name, campaign_schedule: schedule(), sequences: sequences(), ...limits });
        if (typeof created.id !== 'string' || !created.id) return { ok: false, reason: 'error', detail: 'Instantly API created the campaign without an id in its answer' };
        return { ok: true, provider_campaign_id: created.id, repeated: false };
      } catch (err) {
        return failure(err);
      }
    },

    async addLeads(_deps: PortDeps, input: { orgId: string; provider_campaign_id: string; leads: SequencerLead[] }): Promise<AddLeadsResult> {
      const problem = leadsProblem(input.leads);
      if (problem) return { ok: false, reason: 'error', detail: problem };
      if (!input.leads.length) return { ok: true, added: 0, already: 0 };
      try {
        const answer = await call<BulkAnswer>('POST', '/leads/add', {
          campaign_id: input.provider_campaign_id,
          // A lead already in the campaign is skipped, never a second copy: a repeated push adds nothing.
          skip_if_in_campaign: true,
          leads: input.leads.map((l) => ({
            email: l.email.trim().toLowerCase(),
            first_name: l.first_name,
            last_name: l.last_name,
            company_name: l.company,
            custom_variables: leadVariables(l),
          })),
        });
        const uploaded = typeof answer.leads_uploaded === 'number' ? answer.leads_uploaded : Array.isArray(answer.created_leads) ? answer.created_leads.length : null;
        if (uploaded === null) return { ok: false, reason: 'error', detail: 'Instantly API answered without leads_uploaded' };
        const added = Math.max(0, Math.min(uploaded, input.leads.length));
        return { ok: true, added, already: input.leads.length - added };
      } catch (err) {
        return failure(err);
      }
    },

    // POST /api/v2/campaigns/{id}/activate starts sending; activating an active campaign leaves it active. A JSON
    // body is sent because Instantly's API refuses an empty body with a JSON content type.
    async activateCampaign(_deps: PortDeps, input: { orgId: string; provider_campaign_id: string }): Promise<ActivateResult> {
      try {
        await call<unknown>('POST', `/campaigns/${encodeURIComponent(input.provider_campaign_id)}/activate`, {});
        return { ok: true };
      } catch (err) {
        return failure(err);
      }
    },
  };
}
