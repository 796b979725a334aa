/**
 * Upstash Redis REST bridge over a real local Redis, so tests exercise the production clients (`@upstash/redis`,
 * `@upstash/ratelimit`) unchanged. Nothing on npm serves this protocol locally and the official emulator is a
 * Docker image we cannot run here.
 *
 * Protocol subset (what @upstash/redis 1.39 sends):
 *   POST /            body ["CMD", ...args]        → 200 { result } | 400 { error }
 *   POST /pipeline    body [["CMD", ...], ...]     → 200 [{ result } | { error }, ...]   (not atomic)
 *   POST /multi-exec  body [["CMD", ...], ...]     → 200 [{ result } | { error }, ...]   (MULTI/EXEC; 400 if aborted)
 *   Authorization: Bearer <token> (else 401). With `Upstash-Encoding: base64` every string in a result is base64
 *   (integers stay numbers, nil stays null, arrays recurse). `upstash-sync-token` / telemetry headers are ignored.
 *   Replies are raw RESP2 shapes (HGETALL is a flat array), as Upstash returns them.
 *
 * Lua: Upstash accepts the shebang flag `allow-key-locking` (every Ratelimit script starts with
 * `#!lua flags=allow-key-locking`), real Redis 7 rejects it. EVAL / SCRIPT LOAD strip it and remember
 * client-SHA1 (of the original text) → stripped script; EVALSHA of a remembered SHA runs the stripped script via
 * EVAL; any other EVALSHA goes to Redis unchanged, which answers NOSCRIPT for scripts it has not seen, so the
 * client falls back to EVAL as it does against Upstash.
 *
 * Limits: one shared Redis connection, so blocking commands (BLPOP …) stall every caller and connection state
 * (SELECT, WATCH, SUBSCRIBE) is not supported. Binds 127.0.0.1 only; bodies over 8 MiB are refused.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { Command, Redis } from 'ioredis';

export interface UpstashBridge {
  port: number;
  url: string;
  token: string;
  /** HTTP requests received (any path, any outcome) and Redis commands run, since start or resetStats(). */
  stats: { requests: number; commands: number };
  resetStats(): void;
  close(): Promise<void>;
}

type Arg = string | number;
type Reply = { result: unknown } | { error: string };

/** A command whose reply skips ioredis' reply transformers (e.g. HGETALL → object) and stays as Buffers. */
class RawCommand extends Command {
  constructor(name: string, args: Arg[]) {
    super(name, args, { replyEncoding: null });
  }
  override transformReply(result: Buffer | Buffer[]): Buffer | Buffer[] {
    return result;
  }
}

const MAX_BODY = 8 * 1024 * 1024;
const sha1 = (s: string) => createHash('sha1').update(s).digest('hex');

/** Drop `allow-key-locking` from a `#!lua flags=…` first line; the line stays (blank) so error line numbers hold. */
function stripFlag(script: string): string {
  const m = /^#!lua[^\n]*/.exec(script);
  if (!m || !m[0].includes('allow-key-locking')) return script;
  const flags = /flags=(\S*)/.exec(m[0])?.[1]?.split(',').filter((f) => f && f !== 'allow-key-locking') ?? [];
  return (flags.length ? `#!lua flags=${flags.join(',')}` : '') + script.slice(m[0].length);
}

export async function startUpstashBridge(opts: { redisUrl: string; token: string; port?: number }): Promise<UpstashBridge> {
  const redis = new Redis(opts.redisUrl, { protocol: 2, lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const scripts = new Map<string, string>(); // client SHA1 → stripped script
  const stats = { requests: 0, commands: 0 };

  /** Rewrites Lua commands for real Redis; `override` replaces the reply (SCRIPT LOAD must return the client's SHA). */
  function translate(raw: unknown[]): { cmd: RawCommand; override?: string } {
    const [name, ...rest] = raw.map((a) => (a === null ? '' : typeof a === 'number' ? a : String(a)));
    const lower = String(name).toLowerCase();
    const args = [...rest];
    if ((lower === 'eval' || lower === 'eval_ro') && typeof args[0] === 'string') {
      const stripped = stripFlag(args[0]);
      if (stripped !== args[0]) scripts.set(sha1(args[0]), stripped);
      args[0] = stripped;
    } else if ((lower === 'evalsha' || lower === 'evalsha_ro') && scripts.has(String(args[0]).toLowerCase())) {
      args[0] = scripts.get(String(args[0]).toLowerCase())!;
      return { cmd: new RawCommand(lower === 'evalsha' ? 'eval' : 'eval_ro', args) };
    } else if (lower === 'script' && String(args[0]).toLowerCase() === 'load' && typeof args[1] === 'string') {
      const stripped = stripFlag(args[1]);
      if (stripped !== args[1]) {
        scripts.set(sha1(args[1]), stripped);
        return { cmd: new RawCommand('script', ['load', stripped]), override: sha1(args[1]) };
      }
    }
    return { cmd: new RawCommand(String(name), args) };
  }

  function encode(v: unknown, b64: boolean): unknown {
    if (Buffer.isBuffer(v)) return b64 ? v.toString('base64') : v.toString('utf8');
    if (typeof v === 'string') return b64 ? Buffer.from(v).toString('base64') : v;
    if (Array.isArray(v)) return v.map((x) => encode(x, b64));
    if (v instanceof Error) return v.message;
    return v ?? null;
  }

  const toReply = ([err, val]: [Error | null, unknown], override: string | undefined, b64: boolean): Reply =>
    err ? { error: err.message } : { result: encode(override ?? val, b64) };

  async function runBatch(cmds: unknown[][], b64: boolean, atomic: boolean): Promise<Reply[]> {
    if (cmds.length === 0) return [];
    const batch = atomic ? redis.multi() : redis.pipeline();
    const translated = cmds.map(translate);
    // Pipeline.sendCommand exists at run time (it is how ioredis queues commands) but is missing from the typings.
    for (const { cmd } of translated) (batch as unknown as { sendCommand(c: Command): void }).sendCommand(cmd);
    const results = ((await batch.exec()) ?? []) as [Error | null, unknown][];
    return results.map((r, i) => toReply(r, translated[i].override, b64));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    stats.requests++;
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
    };
    const path = new URL(req.url ?? '/', 'http://bridge').pathname.replace(/\/+$/, '') || '/';
    if (req.method !== 'POST' || !['/', '/pipeline', '/multi-exec'].includes(path)) return send(404, { error: 'Not found' });
    if (req.headers.authorization !== `Bearer ${opts.token}`) return send(401, { error: 'Unauthorized' });

    const chunks: Buffer[] = [];
    let size = 0;
    for await (const c of req) {
      size += (c as Buffer).length;
      if (size > MAX_BODY) return send(413, { error: 'Request body too large' });
      chunks.push(c as Buffer);
    }
    let body: unknown;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    } catch {
      return send(400, { error: 'ERR failed to parse command' });
    }
    const b64 = String(req.headers['upstash-encoding'] ?? '').toLowerCase() === 'base64';

    if (path === '/') {
      if (!Array.isArray(body) || body.length === 0) return send(400, { error: 'ERR failed to parse command' });
      stats.commands++;
      const { cmd, override } = translate(body);
      try {
        return send(200, { result: encode(override ?? (await redis.sendCommand(cmd)), b64) });
      } catch (e) {
        return send(400, { error: (e as Error).message });
      }
    }
    if (!Array.isArray(body) || !body.every((c) => Array.isArray(c) && c.length > 0)) {
      return send(400, { error: 'ERR failed to parse pipeline request' });
    }
    stats.commands += body.length;
    try {
      return send(200, await runBatch(body as unknown[][], b64, path === '/multi-exec'));
    } catch (e) {
      // EXECABORT: a command was rejected while queueing; name the culprits as Upstash's message would.
      const why = ((e as { previousErrors?: Error[] }).previousErrors ?? []).map((x) => x.message);
      return send(400, { error: [(e as Error).message, ...why].join(' ') });
    }
  }

  const server = createServer((req, res) => {
    handle(req, res).catch((e) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: String((e as Error)?.message ?? e) }));
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    token: opts.token,
    stats,
    resetStats() {
      stats.requests = 0;
      stats.commands = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await redis.quit().catch(() => redis.disconnect());
    },
  };
}
