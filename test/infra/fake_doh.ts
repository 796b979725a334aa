// A local stand-in for a DNS-over-HTTPS JSON API (Cloudflare's /dns-query, Google's /resolve): GET ?name=&type=
// with `accept: application/dns-json` answers { Status, TC, RD, RA, AD, CD, Question, Answer } as they document.
// A zone map says what each name holds; failures (SERVFAIL, HTTP 5xx, a slow answer) are switched on per name or
// for every request (fake_shared.ts). TXT data is quoted the way Cloudflare writes it.
import { startFakeApi, type RecordedRequest, type Reply } from './fake_shared';

export type FakeZone = { mx?: string[]; txt?: string[]; status?: number };

const TYPES: Record<string, number> = { A: 1, CNAME: 5, MX: 15, TXT: 16, AAAA: 28 };

export async function startFakeDoh(zones: Record<string, FakeZone>) {
  const route = (req: RecordedRequest): Reply => {
    if (req.method !== 'GET') return { status: 405, body: { error: 'method not allowed' } };
    if (!String(req.headers.accept ?? '').includes('application/dns-json')) return { status: 400, body: { error: 'accept application/dns-json' } };
    const name = (req.query.name ?? '').toLowerCase().replace(/\.$/, '');
    const type = (req.query.type ?? '').toUpperCase();
    if (!name || !(type in TYPES)) return { status: 400, body: { error: 'Invalid name or type' } };
    const zone = zones[name];
    const question = [{ name: `${name}.`, type: TYPES[type] }];
    const head = { TC: false, RD: true, RA: true, AD: false, CD: false, Question: question };
    if (!zone) return { status: 200, body: { Status: 3, ...head } };
    if (zone.status !== undefined) return { status: 200, body: { Status: zone.status, ...head } };
    const data = type === 'MX' ? (zone.mx ?? []) : type === 'TXT' ? (zone.txt ?? []).map((t) => (t.length > 40 ? `"${t.slice(0, 40)}" "${t.slice(40)}"` : `"${t}"`)) : [];
    const Answer = data.map((d) => ({ name: `${name}.`, type: TYPES[type], TTL: 300, data: d }));
    return { status: 200, body: { Status: 0, ...head, ...(Answer.length ? { Answer } : {}) } };
  };
  const fake = await startFakeApi(route, { failureBody: (f) => ({ error: `fake failure ${f.status}` }) });
  return { ...fake, url: `${fake.url}/dns-query` };
}
