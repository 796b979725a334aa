// A local stand-in for the Google Workspace Admin SDK Directory API calls the production mailbox provider makes
// (developers.google.com/admin-sdk/directory/reference/rest): GET /admin/directory/v1/customer/{customer}/domains,
// POST /admin/directory/v1/users and GET /admin/directory/v1/users/{userKey}, with a Bearer token. It checks the
// documented users.insert fields (primaryEmail, name.givenName/familyName, password of 8–100 characters), answers
// Google's error envelope `{ error: { code, message, errors: [{ reason }] } }` (409 duplicate, 412 domain not
// verified, 403 license limit), keeps the users, and records every request. Failure modes: fake_shared.ts.
import { startFakeApi, type RecordedRequest, type Reply } from './fake_shared';

export type FakeGoogleDirectory = Awaited<ReturnType<typeof startFakeGoogleDirectory>>;

const PREFIX = '/admin/directory/v1';
const gError = (code: number, reason: string, message: string): Reply => ({ status: code, body: { error: { code, message, errors: [{ message, domain: 'global', reason }] } } });

export async function startFakeGoogleDirectory(opts: { token: string; customer: string; port?: number }) {
  /** The customer's domains, the first primary. */
  const domains: Array<{ domainName: string; verified: boolean }> = [];
  const users = new Map<string, { id: string; primaryEmail: string; name: { givenName: string; familyName: string } }>();
  let licensesLeft = Infinity;
  let seq = 100_000;

  const route = (req: RecordedRequest): Reply => {
    if (req.headers.authorization !== `Bearer ${opts.token}`) return gError(401, 'authError', 'Invalid Credentials');
    const path = req.path.startsWith(PREFIX) ? req.path.slice(PREFIX.length) : req.path;
    const cust = /^\/customer\/([^/]+)\/domains$/.exec(path);
    if (cust && req.method === 'GET') {
      if (decodeURIComponent(cust[1]) !== opts.customer && decodeURIComponent(cust[1]) !== 'my_customer') return gError(404, 'notFound', 'Resource Not Found: customer');
      return { status: 200, body: { kind: 'admin#directory#domains', domains: domains.map((d, i) => ({ kind: 'admin#directory#domain', domainName: d.domainName, verified: d.verified, isPrimary: i === 0, creationTime: '1700000000000' })) } };
    }
    if (path === '/users' && req.method === 'POST') return insert(req.json);
    const user = /^\/users\/([^/]+)$/.exec(path);
    if (user && req.method === 'GET') {
      const u = users.get(decodeURIComponent(user[1]).toLowerCase());
      return u ? { status: 200, body: { kind: 'admin#directory#user', ...u } } : gError(404, 'notFound', 'Resource Not Found: userKey');
    }
    return gError(404, 'notFound', 'Not Found');
  };

  function insert(body: any): Reply {
    const email = typeof body?.primaryEmail === 'string' ? body.primaryEmail.toLowerCase() : '';
    if (!email.includes('@')) return gError(400, 'invalid', 'Invalid Input: primary_user_email');
    if (!body?.name?.givenName || !body?.name?.familyName) return gError(400, 'required', 'Invalid Input: name');
    if (typeof body.password !== 'string' || body.password.length < 8 || body.password.length > 100) return gError(400, 'invalid', 'Invalid Password');
    const domain = domains.find((d) => d.domainName === email.split('@')[1]);
    if (!domain) return gError(400, 'invalid', 'Domain not found.');
    if (!domain.verified) return gError(412, 'conditionNotMet', 'Domain not verified');
    if (users.has(email)) return gError(409, 'duplicate', 'Entity already exists.');
    if (licensesLeft <= 0) return gError(403, 'forbidden', 'Domain user limit reached. Please purchase more licenses.');
    licensesLeft--;
    const u = { id: String(++seq), primaryEmail: email, name: { givenName: body.name.givenName, familyName: body.name.familyName } };
    users.set(email, u);
    return { status: 200, body: { kind: 'admin#directory#user', ...u, isAdmin: false } };
  }

  const api = await startFakeApi(route, {
    port: opts.port,
    failureBody: (f) => (f.status === 429 ? { error: { code: 429, message: 'Rate Limit Exceeded', errors: [{ reason: 'rateLimitExceeded' }] } } : { error: { code: f.status, message: 'Backend Error', errors: [{ reason: 'backendError' }] } }),
  });
  return {
    ...api,
    addDomain(domainName: string, verified = true) {
      domains.push({ domainName: domainName.toLowerCase(), verified });
    },
    userOf: (email: string) => users.get(email.toLowerCase()) ?? null,
    setLicensesLeft(n: number) {
      licensesLeft = n;
    },
    reset() {
      api.reset();
      domains.length = 0;
      users.clear();
      licensesLeft = Infinity;
    },
  };
}
