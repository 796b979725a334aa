/**
 * Proves the production QStash SDK works end to end against the emulator: the real Client publishes, a local
 * receiver checks every delivery with the real Receiver, and retries/delays/dedup behave as the app relies on.
 * Needs no external service, so it always runs.
 */
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { Client, Receiver } from '@upstash/qstash';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { startQStashEmulator, type QStashEmulator } from './qstash_emulator.js';

interface Hit { headers: IncomingHttpHeaders; body: string; at: number; verified: boolean | string }

describe('qstash_emulator: @upstash/qstash Client + Receiver', () => {
  let emu: QStashEmulator;
  let server: Server;
  let hookUrl: string;
  let hits: Hit[] = [];
  let answer: (attempt: number) => number = () => 200; // status the receiver returns on its n-th hit
  let client: Client;
  let receiver: Receiver;

  beforeAll(async () => {
    emu = await startQStashEmulator({ retryDelayMs: 50 });
    // devMode: false so a stray QSTASH_DEV in the environment cannot swap in the SDK's fixed dev keys/URL.
    client = new Client({ baseUrl: emu.url, token: emu.token, devMode: false, enableTelemetry: false });
    receiver = new Receiver({ currentSigningKey: emu.currentSigningKey, nextSigningKey: emu.nextSigningKey, devMode: false });
    server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = Buffer.concat(chunks).toString('utf8'); // verify the raw text, never re-serialised JSON
      const verified = await receiver
        .verify({ signature: String(req.headers['upstash-signature']), body, url: hookUrl })
        .catch((e: Error) => e.message);
      hits.push({ headers: req.headers, body, at: Date.now(), verified });
      res.writeHead(answer(hits.length)).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    hookUrl = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook?tenant=t1`;
    vi.spyOn(console, 'error').mockImplementation(() => {}); // the SDK logs every failed publish
  });

  afterEach(async () => {
    await emu.drain();
    hits = [];
    answer = () => 200;
  });

  afterAll(async () => {
    vi.restoreAllMocks();
    await emu?.close();
    await new Promise((r) => server?.close(r));
  });

  it('serves the signing keys', async () => {
    const res = await fetch(`${emu.url}/v2/keys`, { headers: { authorization: `Bearer ${emu.token}` } });
    expect(await res.json()).toEqual({ current: emu.currentSigningKey, next: emu.nextSigningKey });
  });

  it('delivers a delayed publishJSON with a signature the real Receiver accepts', async () => {
    const t0 = Date.now();
    const { messageId } = await client.publishJSON({
      url: hookUrl,
      body: { leadId: 42, note: 'héllo ✓' },
      delay: 1,
      headers: { 'X-Trace': 'abc' },
    });
    await emu.drain();
    expect(hits).toHaveLength(1);
    const [hit] = hits;
    expect(hit.verified).toBe(true);
    expect(hit.at - t0).toBeGreaterThanOrEqual(990);
    expect(hit.at - t0).toBeLessThan(3000);
    expect(JSON.parse(hit.body)).toEqual({ leadId: 42, note: 'héllo ✓' });
    expect(hit.headers).toMatchObject({
      'upstash-message-id': messageId,
      'upstash-retried': '0',
      'x-trace': 'abc',
      'content-type': 'application/json',
    });
    expect(emu.published.find((m) => m.messageId === messageId)).toMatchObject({ destination: hookUrl, method: 'POST' });
  });

  it('a tampered body, a wrong URL or unknown keys fail verification; the next key is accepted', async () => {
    await client.publishJSON({ url: hookUrl, body: { amount: 1 } });
    await emu.drain();
    const signature = String(hits[0].headers['upstash-signature']);
    const body = hits[0].body;
    await expect(receiver.verify({ signature, body: body.replace('1', '9'), url: hookUrl })).rejects.toThrow(/body hash/);
    await expect(receiver.verify({ signature, body, url: 'http://127.0.0.1:1/other' })).rejects.toThrow(/subject/);
    const stranger = new Receiver({ currentSigningKey: 'sig_x', nextSigningKey: 'sig_y', devMode: false });
    await expect(stranger.verify({ signature, body })).rejects.toThrow();
    const rotated = new Receiver({ currentSigningKey: 'sig_old', nextSigningKey: emu.currentSigningKey, devMode: false });
    expect(await rotated.verify({ signature, body, url: hookUrl })).toBe(true);
  });

  it('retries a failing receiver: 500, 500, then delivered on the 3rd attempt', async () => {
    answer = (n) => (n < 3 ? 500 : 200);
    const { messageId } = await client.publishJSON({ url: hookUrl, body: { x: 1 } });
    await emu.drain();
    expect(hits.map((h) => h.headers['upstash-retried'])).toEqual(['0', '1', '2']);
    expect(hits.every((h) => h.verified === true)).toBe(true);
    expect(emu.deliveries.filter((d) => d.messageId === messageId).map((d) => [d.attempt, d.status])).toEqual([
      [1, 500], [2, 500], [3, 200],
    ]);
  });

  it('gives up after Upstash-Retries retries', async () => {
    answer = () => 503;
    await client.publishJSON({ url: hookUrl, body: {}, retries: 1 });
    await emu.drain();
    expect(hits).toHaveLength(2);
  });

  it('deduplicates by Upstash-Deduplication-Id', async () => {
    const id = `dedup-${Date.now()}`;
    const first = await client.publishJSON({ url: hookUrl, body: { n: 1 }, deduplicationId: id });
    const second = await client.publishJSON({ url: hookUrl, body: { n: 2 }, deduplicationId: id });
    expect(second).toMatchObject({ messageId: first.messageId, deduplicated: true });
    await emu.drain();
    expect(hits.map((h) => JSON.parse(h.body))).toEqual([{ n: 1 }]);
  });

  it('failNextPublishes makes publishJSON throw, then publishing recovers', async () => {
    emu.failNextPublishes(1);
    await expect(client.publishJSON({ url: hookUrl, body: {} })).rejects.toThrow(/injected/);
    await expect(client.publishJSON({ url: hookUrl, body: {} })).resolves.toHaveProperty('messageId');
  });

  it('refuses a wrong token and non-loopback destinations', async () => {
    const stranger = new Client({ baseUrl: emu.url, token: 'wrong', devMode: false, enableTelemetry: false });
    await expect(stranger.publishJSON({ url: hookUrl, body: {} })).rejects.toThrow(/Unauthorized/);
    await expect(client.publishJSON({ url: 'http://192.0.2.1/hook', body: {} })).rejects.toThrow(/loopback/);
  });
});
