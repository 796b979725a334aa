// A local stand-in for the Porkbun JSON API v3 calls the production registrar makes (porkbun.com/api/json/v3/
// documentation): POST /api/json/v3/domain/checkDomain/{domain}, /domain/create/{domain} and /domain/listAll, the key
// pair in the JSON body. It checks the keys and the documented create fields (cost in cents equal to the price,
// agreeToTerms "yes"), answers `{ status: "SUCCESS", … }` or `{ status: "ERROR", message }` with HTTP 400, keeps the
// account's domains, and records every request. Failure modes: fake_shared.ts.
import { startFakeApi, type RecordedRequest, type Reply } from './fake_shared';

export type FakePorkbun = Awaited<ReturnType<typeof startFakePorkbun>>;

const PREFIX = '/api/json/v3';
const error = (message: string, status = 400): Reply => ({ status, body: { status: 'ERROR', message } });

export async function startFakePorkbun(opts: { apiKey: string; secretApiKey: string; port?: number }) {
  /** domain → its registration price in dollars ("9.73"); absent: not available. */
  const offers = new Map<string, string>();
  /** The account's domains (bought here or set up by the test). */
  const account = new Set<string>();
  /** Domains someone else registers between our check and our create (a race the registrar decides). */
  const soldAtCreate = new Set<string>();
  /** Domains whose price changes between our check and our create (dollars). */
  const repricedAtCreate = new Map<string, string>();
  let orderSeq = 1000;

  const route = (req: RecordedRequest): Reply => {
    if (req.method !== 'POST') return error('Invalid method', 405);
    if (!req.json || req.json.apikey !== opts.apiKey || req.json.secretapikey !== opts.secretApiKey) return error('Invalid API key. (002)', 403);
    const path = req.path.startsWith(PREFIX) ? req.path.slice(PREFIX.length) : req.path;
    const m = /^\/domain\/(checkDomain|create)\/([^/]+)$/.exec(path);
    if (m?.[1] === 'checkDomain') return check(decodeURIComponent(m[2]).toLowerCase());
    if (m?.[1] === 'create') return create(decodeURIComponent(m[2]).toLowerCase(), req.json);
    if (path === '/domain/listAll') return list(Number(req.json.start ?? 0));
    return error('Invalid endpoint', 404);
  };

  function check(domain: string): Reply {
    const price = offers.get(domain);
    const avail = price !== undefined && !account.has(domain);
    return {
      status: 200,
      body: {
        status: 'SUCCESS',
        response: { avail: avail ? 'yes' : 'no', type: 'registration', price: price ?? '0.00', firstYearPromo: 'no', regularPrice: price ?? '0.00', premium: 'no', additional: {} },
        limits: { TTL: '10', limit: '1', used: 1, naturalLanguage: '1 out of 1 checks within 10 seconds used.' },
      },
    };
  }

  function create(domain: string, body: any): Reply {
    if (body.agreeToTerms !== 'yes') return error('You must agree to the terms (agreeToTerms: "yes").');
    if (soldAtCreate.has(domain)) return error(`The domain ${domain} is not available for registration.`);
    const price = repricedAtCreate.get(domain) ?? offers.get(domain);
    if (price === undefined || account.has(domain)) return error(`The domain ${domain} is not available for registration.`);
    const cents = Math.round(Number(price) * 100);
    if (!Number.isInteger(body.cost) || body.cost !== cents) return error(`The cost provided (${body.cost}) does not match the current price of ${cents} pennies.`);
    account.add(domain);
    return { status: 200, body: { status: 'SUCCESS', domain, cost: cents, orderId: ++orderSeq, balance: 100_000 - cents } };
  }

  function list(start: number): Reply {
    const all = [...account].sort().map((domain) => ({ domain, status: 'ACTIVE', tld: domain.split('.').pop(), createDate: '2026-01-01 00:00:00', expireDate: '2027-01-01 00:00:00', autoRenew: 0 }));
    return { status: 200, body: { status: 'SUCCESS', domains: all.slice(start, start + 1000) } };
  }

  const api = await startFakeApi(route, {
    port: opts.port,
    failureBody: (f) => (f.status === 429 ? { status: 'ERROR', message: 'Rate limit exceeded' } : { status: 'ERROR', message: 'Internal error' }),
  });
  return {
    ...api,
    /** The registry offers this domain at this price (US dollars as Porkbun writes it). */
    offer(domain: string, price: string) {
      offers.set(domain.toLowerCase(), price);
    },
    /** The account already holds it (bought earlier, e.g. before a crash). */
    own(domain: string) {
      account.add(domain.toLowerCase());
    },
    owns: (domain: string) => account.has(domain.toLowerCase()),
    /** Between the check and the create, someone else registers it. */
    sellAtCreate(domain: string) {
      soldAtCreate.add(domain.toLowerCase());
    },
    /** Between the check and the create, its price changes. */
    repriceAtCreate(domain: string, price: string) {
      repricedAtCreate.set(domain.toLowerCase(), price);
    },
    /** Requests to one endpoint ("checkDomain", "create", "listAll"). */
    calls: (what: string) => api.requests.filter((r) => r.path.includes(`/domain/${what}`)),
    reset() {
      api.reset();
      offers.clear();
      account.clear();
      soldAtCreate.clear();
      repricedAtCreate.clear();
    },
  };
}
