// Shared by the benchmarks: run autocannon against a URL and report throughput and latency.
import autocannon from 'autocannon';

export type Load = { rps: number; p50: number; p99: number; requests: number; errors: number; non2xx: number };

export async function load(
  url: string,
  opts: { headers?: () => Record<string, string>; seconds?: number; connections?: number; method?: 'GET' | 'POST'; body?: string } = {},
): Promise<Load> {
  const requests = opts.headers ? [{ setupRequest: (req: { headers?: Record<string, string> }) => ({ ...req, headers: { ...req.headers, ...opts.headers!() } }) }] : undefined;
  const r = await autocannon({
    url,
    requests: requests as never,
    duration: opts.seconds ?? 8,
    connections: opts.connections ?? 10,
    ...(opts.method ? { method: opts.method } : {}),
    ...(opts.body !== undefined ? { body: opts.body } : {}),
  });
  return {
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: r.requests.total,
    errors: r.errors + r.timeouts,
    non2xx: r.non2xx,
  };
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);

export function table(rows: string[][]): string {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r, j) => (j === 1 ? widths.map((w) => '-'.repeat(w)).join(' | ') + '\n' : '') + r.map((c, i) => c.padEnd(widths[i])).join(' | ')).join('\n');
}
