// A local stand-in for a table tool's webhook source (a Clay-like table that takes one row per POST): it checks the
// Bearer token when one is set, takes one JSON object per request, answers 200, and records every request. Failure
// modes (429 with Retry-After, 5xx, slow answers, redirects, dropped connections): fake_shared.ts. `failFor` makes
// the rows whose `email` matches always fail with that status, as a table rejecting a row would.
import { startFakeApi, type FakeFailure, type RecordedRequest, type Reply } from './fake_shared';

export type FakeTable = Awaited<ReturnType<typeof startFakeTable>>;

export async function startFakeTable(opts: { token?: string } = {}) {
  const rows: Record<string, unknown>[] = [];
  const failFor = new Map<string, number>();
  const route = (req: RecordedRequest): Reply => {
    if (req.method !== 'POST' || req.path !== '/hook') return { status: 404, body: { error: 'not found' } };
    if (opts.token && req.headers.authorization !== `Bearer ${opts.token}`) return { status: 401, body: { error: 'bad token' } };
    if (!String(req.headers['content-type'] ?? '').startsWith('application/json')) return { status: 415, body: { error: 'json only' } };
    const row = req.json;
    if (!row || typeof row !== 'object' || Array.isArray(row)) return { status: 400, body: { error: 'one JSON object per request' } };
    const failing = failFor.get(String(row.email));
    if (failing) return { status: failing, body: { error: 'row rejected' } };
    rows.push(row);
    return { status: 200, body: { ok: true } };
  };
  const api = await startFakeApi(route, { failureBody: (f: FakeFailure & { status: number }) => ({ error: `failure ${f.status}` }) });
  return {
    ...api,
    hookUrl: `${api.url}/hook`,
    /** The rows the table accepted, in arrival order. */
    rows,
    failFor(email: string, status: number) {
      failFor.set(email, status);
    },
  };
}
