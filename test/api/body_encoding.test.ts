// Request bodies must be UTF-8: invalid bytes are a 400 validation_error before auth, credits or any write
// (decoding them leniently would store U+FFFD in their place). Valid multi-byte text passes unchanged, and the
// handlers still read the body the guard has already read (Hono caches it).
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newGroup } from '../../lib/http/env';
import { createPlatform } from '../../lib/http/platform';
import { events, leads, replies } from '../../schema';
import { ADMIN_TOKEN, startTestEnv, type TestEnv } from '../helpers/harness';
import { newTenant, type Tenant } from '../helpers/tenant';
import { creditsLeft, storedSuggestions, usedToday } from './ai_helpers';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

const INVALID: [string, number[]][] = [
  ['a lead byte followed by ASCII (0xC3 0x28)', [0xc3, 0x28]],
  ['a lone 0xFF', [0xff]],
  ['a truncated 4-byte sequence (0xF0 0x9F 0x98)', [0xf0, 0x9f, 0x98]],
  ['an overlong "/" (0xC0 0xAF)', [0xc0, 0xaf]],
  ['an encoded surrogate (0xED 0xA0 0x80)', [0xed, 0xa0, 0x80]],
];

/** JSON text with raw bytes spliced into one string value: `{"…": "<before><bytes><after>"}`. */
const jsonWithBytes = (prefix: string, bytes: number[], suffix: string) => Buffer.concat([Buffer.from(prefix, 'utf8'), Buffer.from(bytes), Buffer.from(suffix, 'utf8')]);

const send = async (path: string, body: Buffer, headers: Record<string, string>, method = 'POST') => {
  const res = await env.app.request(path, { method, headers, body: Uint8Array.from(body) });
  return { status: res.status, json: (await res.json()) as any };
};
const asKey = (t: Tenant, extra: Record<string, string> = {}) => ({ 'x-service-key': t.key, 'x-forwarded-for': t.ip, 'content-type': 'application/json', ...extra });
const asAdmin = (t: Tenant) => ({ authorization: `Bearer ${ADMIN_TOKEN}`, 'x-forwarded-for': t.ip, 'content-type': 'application/json' });

async function rowsOf(t: Tenant) {
  const db = env.services.db;
  const [r, l, e] = await Promise.all([
    db.select({ id: replies.id }).from(replies).where(eq(replies.orgId, t.org.id)),
    db.select({ id: leads.id }).from(leads).where(eq(leads.orgId, t.org.id)),
    db.select({ id: events.id }).from(events).where(eq(events.orgId, t.org.id)),
  ]);
  return { replies: r.length, leads: l.length, events: e.length };
}

const expectNotUtf8 = (r: { status: number; json: any }) => {
  expect(r.status).toBe(400);
  expect(r.json.error.code).toBe('validation_error');
  expect(r.json.error.message).toMatch(/^body: not valid UTF-8/);
};

describe('invalid UTF-8 in a request body', () => {
  it.each(INVALID)('POST /v1/suggest with %s: 400, no credit charged, nothing stored', async (_name, bytes) => {
    const t = await newTenant(env);
    const keyId = (await t.call('GET', '/v1/me')).json.key.id as string;
    const before = await creditsLeft(t);
    const r = await send('/v1/suggest', jsonWithBytes('{"reply_received":"Sounds good ', bytes, ' call next week?"}'), asKey(t));
    expectNotUtf8(r);
    expect(await creditsLeft(t)).toBe(before);
    expect(await usedToday(env, keyId)).toBe(0);
    expect(await storedSuggestions(env, t.org.id)).toHaveLength(0);
  });

  it.each(INVALID)('admin POST inbound-replies with %s: 400, no reply, lead or event written', async (_name, bytes) => {
    const t = await newTenant(env);
    const body = jsonWithBytes(`{"campaign_id":"${t.campaign.id}","from_email":"p@prospect.com","body":"Ja, gerne `, bytes, `"}`);
    const r = await send(`/admin/v1/orgs/${t.org.id}/inbound-replies`, body, asAdmin(t));
    expectNotUtf8(r);
    expect(await rowsOf(t)).toEqual({ replies: 0, leads: 0, events: 0 });
  });

  it('is refused for any method with a body and any content type, and before auth', async () => {
    const t = await newTenant(env);
    const { reply } = await t.reply();
    const patch = await send(`/v1/leads/${reply.id}`, jsonWithBytes('{"notes":"', [0xff], '"}'), asKey(t), 'PATCH');
    expectNotUtf8(patch);
    const plain = await send(`/v1/leads/${reply.id}`, Buffer.from([0x68, 0x69, 0xc0, 0xaf]), asKey(t, { 'content-type': 'text/plain' }), 'PATCH');
    expectNotUtf8(plain);
    const noType = await env.app.request('/v1/suggest', { method: 'POST', headers: { 'x-service-key': t.key, 'x-forwarded-for': t.ip }, body: Buffer.from([0xff]) });
    expect(noType.status).toBe(400);
    const unauthenticated = await send('/v1/suggest', Buffer.from([0xff]), { 'x-forwarded-for': t.ip, 'content-type': 'application/json' });
    expectNotUtf8(unauthenticated);
    const [row] = await env.services.db.select({ notes: leads.notes }).from(leads).where(eq(leads.orgId, t.org.id));
    expect(row.notes).toBeNull();
  });

  it('keeps the 50 KB limit: an oversized streamed non-JSON body is still 413', async () => {
    const t = await newTenant(env);
    const stream = new ReadableStream({
      start(ctrl) {
        for (let i = 0; i < 60; i++) ctrl.enqueue(new TextEncoder().encode('x'.repeat(1024)));
        ctrl.close();
      },
    });
    const res = await env.app.request('/v1/suggest', { method: 'POST', headers: asKey(t, { 'content-type': 'text/plain' }), body: stream, duplex: 'half' } as RequestInit);
    expect(res.status).toBe(413);
    expect((await res.json()).error.code).toBe('payload_too_large');
  });
});

describe('valid UTF-8', () => {
  const TEXT = 'Grüße aus München – gerne nächste Woche 👋🏽, Größe egal. Ça marche, señor! 日本語 ✅';

  it('passes with multi-byte text and reaches the handler unchanged (suggest charges its credit)', async () => {
    const t = await newTenant(env);
    const before = await creditsLeft(t);
    const r = await send('/v1/suggest', Buffer.from(JSON.stringify({ reply_received: TEXT }), 'utf8'), asKey(t));
    expect(r.status).toBe(200);
    expect(await creditsLeft(t)).toBe(before - 1);
  });

  it('stores an ingested reply exactly as sent', async () => {
    const t = await newTenant(env);
    const body = Buffer.from(JSON.stringify({ campaign_id: t.campaign.id, from_email: 'p@prospect.com', from_name: 'Jürgen Müller', body: TEXT }), 'utf8');
    const r = await send(`/admin/v1/orgs/${t.org.id}/inbound-replies`, body, asAdmin(t));
    expect(r.status).toBe(201);
    expect(r.json.reply.body).toBe(TEXT);
    expect(r.json.reply.from_name).toBe('Jürgen Müller');
    const [row] = await env.services.db.select({ body: replies.body, stripped: replies.bodyStripped }).from(replies).where(eq(replies.orgId, t.org.id));
    expect(row).toEqual({ body: TEXT, stripped: TEXT });
  });

  it('leaves the body readable after the guard: text(), json() and arrayBuffer() in a handler', async () => {
    const group = newGroup();
    group.post('/echo/text', async (c) => c.json({ text: await c.req.text() }));
    group.post('/echo/json', async (c) => c.json({ json: await c.req.json(), again: await c.req.text() }));
    group.post('/echo/bytes', async (c) => c.json({ bytes: [...new Uint8Array(await c.req.arrayBuffer())] }));
    const app = createPlatform({ groups: [group], services: async () => ({ services: env.services }), socketIp: () => '127.0.0.7' });
    const raw = Buffer.from(TEXT, 'utf8');

    const text = await app.request('/echo/text', { method: 'POST', headers: { 'content-type': 'text/plain; charset=utf-8' }, body: raw });
    expect(await text.json()).toEqual({ text: TEXT });
    const json = await app.request('/echo/json', { method: 'POST', headers: { 'content-type': 'application/json' }, body: Buffer.from(JSON.stringify({ t: TEXT })) });
    expect(await json.json()).toEqual({ json: { t: TEXT }, again: JSON.stringify({ t: TEXT }) });
    const bytes = await app.request('/echo/bytes', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: raw });
    expect((await bytes.json()).bytes).toEqual([...raw]);
    const bad = await app.request('/echo/bytes', { method: 'POST', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0xc3, 0x28]) });
    expect(bad.status).toBe(400);
    // A body-less POST is not a body to check.
    expect((await app.request('/echo/text', { method: 'POST' })).status).toBe(200);
  });
});
