// A local stand-in for the two Hunter API v2 endpoints the production finder calls (hunter.io/api-documentation/v2):
// GET /v2/email-finder and GET /v2/email-verifier, the key in the `api_key` query parameter. It checks the key and
// the documented required parameters, answers the documented `{ data, meta }` bodies and `{ errors: [...] }` on
// failure, and records every request. Failure modes: fake_shared.ts, plus Hunter's own 403 (its per-second rate
// limit), 202 (verification still running) and 451 (the person asked not to be processed) per address.
import { startFakeApi, type FakeFailure, type RecordedRequest, type Reply } from './fake_shared';

export type FakeHunter = Awaited<ReturnType<typeof startFakeHunter>>;

const errors = (status: number, id: string, details: string): Reply => ({ status, body: { errors: [{ id, code: status, details }] } });

export async function startFakeHunter(opts: { apiKey: string; port?: number }) {
  /** `domain|first|last` (lower-cased) → the address Hunter knows. */
  const people = new Map<string, string>();
  /** address → the verifier's `status` (valid, invalid, accept_all, webmail, disposable, unknown); absent: valid. */
  const verdicts = new Map<string, string>();
  /** Addresses or domains answered with this HTTP status instead (403 rate limit, 202 pending, 451 restricted, 222 failed). */
  const special = new Map<string, number>();

  const route = (req: RecordedRequest): Reply => {
    if (req.method !== 'GET') return errors(404, 'route_not_found', 'Route not found');
    if (!req.query.api_key) return errors(401, 'authentication_failed', 'You are missing the api_key parameter');
    if (req.query.api_key !== opts.apiKey) return errors(401, 'authentication_failed', 'No user found for the API key supplied');
    if (req.path === '/v2/email-finder') return finder(req.query);
    if (req.path === '/v2/email-verifier') return verifier(req.query);
    return errors(404, 'route_not_found', 'Route not found');
  };

  function finder(q: Record<string, string>): Reply {
    if (!q.domain && !q.company) return errors(400, 'wrong_params', 'You are missing the domain parameter');
    let first = q.first_name;
    let last = q.last_name;
    if ((!first || !last) && q.full_name) {
      const words = q.full_name.trim().split(/\s+/);
      if (words.length >= 2) [first, last] = [words[0], words[words.length - 1]];
    }
    if (!first || !last) return errors(400, 'wrong_params', 'You are missing the first_name or last_name parameter');
    const domain = (q.domain ?? '').toLowerCase();
    const status = special.get(domain);
    if (status === 451) return errors(451, 'claimed_email', 'The person behind this email address asked us to stop processing their data');
    if (status === 403) return errors(403, 'too_many_requests', 'You have reached the rate limit');
    const email = people.get(`${domain}|${first.toLowerCase()}|${last.toLowerCase()}`) ?? null;
    return {
      status: 200,
      body: {
        data: {
          first_name: first,
          last_name: last,
          email,
          score: email ? 91 : null,
          domain,
          accept_all: email ? verdicts.get(email) === 'accept_all' : null,
          position: null,
          twitter: null,
          linkedin_url: null,
          phone_number: null,
          company: null,
          sources: [],
          verification: { date: null, status: email ? (verdicts.get(email) ?? 'valid') : null },
        },
        meta: { params: { first_name: q.first_name ?? null, last_name: q.last_name ?? null, full_name: q.full_name ?? null, domain: q.domain ?? null, company: q.company ?? null, max_duration: null } },
      },
    };
  }

  function verifier(q: Record<string, string>): Reply {
    if (!q.email) return errors(400, 'wrong_params', 'You are missing the email parameter');
    const email = q.email.toLowerCase();
    const status = special.get(email);
    if (status === 202) return { status: 202, body: { data: null, meta: { params: { email } } } };
    if (status === 222) return errors(222, 'verification_failed', 'The Email Verification failed because of an unexpected response from the remote SMTP server');
    if (status === 403) return errors(403, 'too_many_requests', 'You have reached the rate limit');
    const verdict = verdicts.get(email) ?? 'valid';
    const result = verdict === 'valid' ? 'deliverable' : verdict === 'invalid' || verdict === 'disposable' ? 'undeliverable' : 'risky';
    return {
      status: 200,
      body: {
        data: {
          status: verdict,
          result,
          score: verdict === 'valid' ? 95 : 40,
          email,
          regexp: true,
          gibberish: false,
          disposable: verdict === 'disposable',
          webmail: verdict === 'webmail',
          mx_records: true,
          smtp_server: true,
          smtp_check: verdict === 'valid',
          accept_all: verdict === 'accept_all',
          block: false,
          sources: [],
        },
        meta: { params: { email } },
      },
    };
  }

  const api = await startFakeApi(route, {
    port: opts.port,
    failureBody: (f: FakeFailure & { status: number }) =>
      f.status === 429 ? { errors: [{ id: 'too_many_requests', code: 429, details: 'You have reached your usage limit' }] } : { errors: [{ id: 'internal_error', code: f.status, details: 'Something went wrong' }] },
  });
  return {
    ...api,
    /** Hunter knows this person's address. */
    addPerson(domain: string, first: string, last: string, email: string, verdict?: string) {
      people.set(`${domain.toLowerCase()}|${first.toLowerCase()}|${last.toLowerCase()}`, email.toLowerCase());
      if (verdict) verdicts.set(email.toLowerCase(), verdict);
    },
    /** A domain (finder) or an address (verifier) answered with this status. */
    answerWith(target: string, status: 202 | 222 | 403 | 451) {
      special.set(target.toLowerCase(), status);
    },
    reset() {
      api.reset();
      people.clear();
      verdicts.clear();
      special.clear();
    },
  };
}
