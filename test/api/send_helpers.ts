// Shared by the governed-send tests: keys at an autonomy level, the Decision Trail and event rows of a reply,
// and a local node:http receiver standing in for an organization's sending service.
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { and, asc, eq, sql } from 'drizzle-orm';
import { events } from '../../schema';
import type { TestEnv } from '../helpers/harness';
import type { Tenant } from '../helpers/tenant';

export const keyAt = (t: Tenant, level: number, scopes: string[] = ['*']) => t.addKey({ name: `level ${level} key`, autonomy_level: level, scopes });

export async function trail(t: Tenant, replyId: string) {
  const r = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/decisions?reply_id=${replyId}`);
  if (r.status !== 200) throw new Error(`decisions: ${r.status} ${r.text}`);
  // The route lists newest first; tests read the story in order.
  return (r.json.decisions as Array<{ action: string; actor: string; detail: Record<string, any>; reply_id: string; lead_id: string }>).slice().reverse();
}

export async function eventsOf(env: TestEnv, orgId: string, replyId: string) {
  return env.services.db
    .select({ kind: events.kind, data: events.data })
    .from(events)
    .where(and(eq(events.orgId, orgId), sql`${events.data}->>'reply_id' = ${replyId}`))
    .orderBy(asc(events.createdAt), asc(events.kind));
}

export async function outbox(t: Tenant, replyId?: string) {
  const r = await t.admin('GET', `/admin/v1/orgs/${t.org.id}/outbox${replyId ? `?reply_id=${replyId}` : ''}`);
  if (r.status !== 200) throw new Error(`outbox: ${r.status} ${r.text}`);
  return r.json.messages as Array<{ id: string; reply_id: string; to_email: string; body: string; sent_at: string }>;
}

export type Hit = { headers: IncomingMessage['headers']; body: string; url: string };

/**
 * A sending service on 127.0.0.1 that answers `status` (changeable) and records every request; `delayMs` holds
 * each answer back (concurrency tests use it so that competing requests surely overlap).
 */
export async function startReceiver(status = 200, delayMs = 0) {
  const hits: Hit[] = [];
  const state = { status, delayMs };
  const server: Server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      hits.push({ headers: req.headers, body, url: req.url ?? '' });
      const answer = () => res.writeHead(state.status, { 'content-type': 'text/plain' }).end(state.status < 300 ? 'queued' : 'mail server on fire');
      if (state.delayMs > 0) setTimeout(answer, state.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
  return {
    url,
    hits,
    setStatus: (s: number) => (state.status = s),
    setDelay: (ms: number) => (state.delayMs = ms),
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

