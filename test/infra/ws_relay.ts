/**
 * WebSocket → TCP relay so the Neon serverless driver (our production Postgres client) can talk to a plain local
 * Postgres in tests. Neon's cloud puts a WebSocket proxy in front of Postgres; nothing like it runs locally, and
 * swapping in node-postgres would test a different code path.
 *
 * Protocol subset (what `@neondatabase/serverless` sends when `neonConfig.wsProxy` points here):
 *   GET ws://127.0.0.1:<port>/v1?address=<host>:<port>  — upgrade, then every binary frame is raw Postgres wire
 *   protocol bytes, copied verbatim both ways. No TLS (use `pipelineTLS=false`, `useSecureWebSocket=false`),
 *   no auth of its own: Postgres does the auth.
 *
 * Safety: binds 127.0.0.1 only, and refuses (HTTP 403, before the upgrade) any address not on `allow`, exactly
 * as written ("host:port"), so it can never be used as an open relay.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { NeonConfig } from '@neondatabase/serverless';
import { WebSocket, WebSocketServer } from 'ws';

export interface WsRelay {
  port: number;
  /** Base URL of the relay (ws://127.0.0.1:<port>/v1); append `?address=host:port`. */
  url: string;
  close(): Promise<void>;
}

export async function startWsRelay(opts: { allow: string[]; port?: number }): Promise<WsRelay> {
  const allow = new Set(opts.allow);
  const wss = new WebSocketServer({ noServer: true });
  const server: Server = createServer((_req, res) => res.writeHead(426).end('WebSocket only\n'));
  const live = new Set<{ ws: WebSocket; tcp: Socket }>();

  server.on('upgrade', (req: IncomingMessage, sock: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://relay');
    const address = url.searchParams.get('address') ?? '';
    if (url.pathname !== '/v1' || !allow.has(address)) {
      sock.end(`HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
      return;
    }
    wss.handleUpgrade(req, sock, head, (ws) => pipe(ws, address));
  });

  function pipe(ws: WebSocket, address: string): void {
    const i = address.lastIndexOf(':');
    const host = address.slice(0, i).replace(/^\[|\]$/g, '');
    // net.Socket buffers writes until connected, so frames that arrive before the TCP handshake are not lost.
    const tcp = connect({ host, port: Number(address.slice(i + 1)) });
    const pair = { ws, tcp };
    live.add(pair);
    tcp.setNoDelay(true);
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      tcp.write(Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer));
    });
    tcp.on('data', (chunk) => {
      if (ws.readyState === WebSocket.OPEN) ws.send(chunk, { binary: true });
    });
    // Either side ending ends the other; errors tear down hard so no socket is left half-open.
    ws.on('close', () => { tcp.end(); live.delete(pair); });
    ws.on('error', () => tcp.destroy());
    tcp.on('close', () => { if (ws.readyState <= WebSocket.OPEN) ws.close(1000); live.delete(pair); });
    tcp.on('error', () => { if (ws.readyState <= WebSocket.OPEN) ws.close(1011, 'upstream error'); });
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  return {
    port,
    url: `ws://127.0.0.1:${port}/v1`,
    async close() {
      for (const { ws, tcp } of live) { ws.terminate(); tcp.destroy(); }
      live.clear();
      wss.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The subset of `neonConfig` the relay needs (the class's static setters satisfy it, as does a client's own). */
export type NeonRelaySettings = Pick<
  NeonConfig,
  'webSocketConstructor' | 'wsProxy' | 'useSecureWebSocket' | 'pipelineTLS' | 'pipelineConnect'
>;

/**
 * Settings that route the Neon driver through the relay. `pipelineConnect: false` because the driver's default
 * ("password") pipelining only works with cleartext-password auth, and local Postgres here uses trust.
 */
export function neonRelayConfig(relayPort: number): NeonRelaySettings {
  return {
    // Node 20 has no global WebSocket; ws's class is compatible at run time but not in the driver's DOM-ish typing.
    webSocketConstructor: WebSocket as unknown as NeonConfig['webSocketConstructor'],
    wsProxy: (host, port) => `127.0.0.1:${relayPort}/v1?address=${host}:${port}`, // no scheme: the driver adds ws://
    useSecureWebSocket: false,
    pipelineTLS: false,
    pipelineConnect: false,
  };
}

/**
 * Apply the relay settings to `neonConfig` (pass the imported `neonConfig` class for the process-wide defaults,
 * or a `client.neonConfig`). neonConfig is module state: apply it in every process/worker that opens a Pool.
 */
export function applyNeonRelayConfig(neonConfig: NeonRelaySettings, relayPort: number): void {
  Object.assign(neonConfig, neonRelayConfig(relayPort));
}
