// A local webhook receiver (node:http) that keeps every request's raw body and headers and verifies each one the
// way an integrator would: with the `stripe` package and the `standardwebhooks` package, not with our own code.
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';

export type Hit = { path: string; headers: IncomingHttpHeaders; body: string; at: number };
export type Answer = { status: number; body?: string; delayMs?: number };

export type Receiver = {
  url: string;
  hits: Hit[];
  /** How the n-th request (1-based) is answered; 200 by default. */
  answer: (n: number, hit: Hit) => Answer;
  close(): Promise<void>;
};

export async function startReceiver(answer: Receiver['answer'] = () => ({ status: 200 })): Promise<Receiver> {
  const r: Receiver = { url: '', hits: [], answer, close: async () => undefined };
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const hit: Hit = { path: req.url ?? '/', headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), at: Date.now() };
    r.hits.push(hit);
    const a = r.answer(r.hits.length, hit);
    if (a.delayMs) await new Promise((done) => setTimeout(done, a.delayMs));
    if (!res.destroyed) res.writeHead(a.status, { 'content-type': 'text/plain' }).end(a.body ?? '');
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  r.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/hook`;
  r.close = () => {
    server.closeAllConnections();
    return new Promise((done) => server.close(() => done()));
  };
  return r;
}

/** Verifies one received request with both libraries; throws if either refuses it. Returns the parsed body. */
export function verifyHit(hit: Hit, secret: string): { id: string; event: string; created_at: string; data: Record<string, any> } {
  const stripeEvent = Stripe.webhooks.constructEvent(hit.body, String(hit.headers['x-service-webhook-signature']), secret);
  const headers = {
    'webhook-id': String(hit.headers['webhook-id']),
    'webhook-timestamp': String(hit.headers['webhook-timestamp']),
    'webhook-signature': String(hit.headers['webhook-signature']),
  };
  const standard = new Webhook(secret).verify(hit.body, headers) as { id: string };
  if (stripeEvent.id !== standard.id) throw new Error('the two libraries parsed different bodies');
  return JSON.parse(hit.body);
}
