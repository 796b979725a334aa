import { createHmac } from 'node:crypto';
import Stripe from 'stripe';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import {
  generateWebhookSecret,
  isValidWebhookSecret,
  signDelivery,
  verifyServiceSignature,
} from '../../lib/webhooks/signing';

const body = JSON.stringify({ id: 'evt_123', object: 'event', type: 'reply.received', data: { lead: 'ü & 🚀' } });
const eventId = 'evt_123';

describe('generateWebhookSecret', () => {
  it('is whsec_ + canonical base64 of 32 bytes, unique per call', () => {
    const a = generateWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    expect(Buffer.from(a.slice(6), 'base64')).toHaveLength(32);
    expect(generateWebhookSecret()).not.toBe(a);
    expect(isValidWebhookSecret(a)).toBe(true);
  });

  it('rejects secrets that could not serve Standard Webhooks', async () => {
    expect(isValidWebhookSecret('whsec_short')).toBe(false);
    expect(isValidWebhookSecret('whsec_' + Buffer.alloc(16).toString('base64'))).toBe(false);
    expect(isValidWebhookSecret(Buffer.alloc(32).toString('base64'))).toBe(false);
    await expect(signDelivery({ secret: 'not-a-secret', eventId, body })).rejects.toThrow(/whsec_/);
  });
});

describe('signDelivery', () => {
  it('emits every header', async () => {
    const h = await signDelivery({ secret: generateWebhookSecret(), eventId, body, timestamp: 1_700_000_000 });
    expect(Object.keys(h).sort()).toEqual(
      [
        'Content-Type',
        'X-Service-Event-Id',
        'X-Service-Signature',
        'X-Service-Webhook-Signature',
        'webhook-id',
        'webhook-signature',
        'webhook-timestamp',
      ].sort(),
    );
    expect(h['Content-Type']).toBe('application/json');
    expect(h['X-Service-Event-Id']).toBe(eventId);
    expect(h['webhook-id']).toBe(eventId);
    expect(h['webhook-timestamp']).toBe('1700000000');
    expect(h['X-Service-Webhook-Signature']).toMatch(/^t=1700000000,v1=[0-9a-f]{64}$/);
    expect(h['X-Service-Signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
    expect(h['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
  });

  it('refuses millisecond timestamps and header-breaking event ids', async () => {
    const secret = generateWebhookSecret();
    await expect(signDelivery({ secret, eventId, body, timestamp: Date.now() })).rejects.toThrow(/unix seconds/);
    await expect(signDelivery({ secret, eventId: 'a\r\nX-Evil: 1', body })).rejects.toThrow(/eventId/);
  });

  it('verifies with stripe constructEvent (whole whsec_ string as key), at a fixed past time', async () => {
    const secret = generateWebhookSecret();
    const t = 1_700_000_000;
    const h = await signDelivery({ secret, eventId, body, timestamp: t });
    const header = h['X-Service-Webhook-Signature'];
    // receivedAt (ms) = 60 s after signing: inside stripe's 300 s default tolerance.
    const event = Stripe.webhooks.constructEvent(body, header, secret, undefined, undefined, (t + 60) * 1000);
    expect(event.id).toBe('evt_123');
    // ... and 301 s later it is rejected as a replay.
    expect(() => Stripe.webhooks.constructEvent(body, header, secret, undefined, undefined, (t + 301) * 1000)).toThrow(
      /tolerance/,
    );
  });

  it('verifies with stripe at the current time, sync and WebCrypto-async, raw Buffer body too', async () => {
    const secret = generateWebhookSecret();
    const h = await signDelivery({ secret, eventId, body });
    const header = h['X-Service-Webhook-Signature'];
    expect(Stripe.webhooks.constructEvent(body, header, secret).id).toBe('evt_123');
    expect(Stripe.webhooks.constructEvent(Buffer.from(body), header, secret).id).toBe('evt_123');
    const subtle = Stripe.createSubtleCryptoProvider();
    const ev = await Stripe.webhooks.constructEventAsync(body, header, secret, undefined, subtle);
    expect(ev.id).toBe('evt_123');
  });

  it('verifies with standardwebhooks Webhook.verify', async () => {
    const secret = generateWebhookSecret();
    const h = await signDelivery({ secret, eventId, body });
    const payload = new Webhook(secret).verify(body, h) as { id: string };
    expect(payload.id).toBe('evt_123');
    // Its own signer agrees byte-for-byte (only the webhook-* subset, lower-cased names).
    const expected = new Webhook(secret).sign(eventId, new Date(Number(h['webhook-timestamp']) * 1000), body);
    expect(h['webhook-signature']).toBe(expected);
  });

  it('legacy X-Service-Signature is the hex HMAC of the body keyed with the whole secret', async () => {
    const secret = generateWebhookSecret();
    const h = await signDelivery({ secret, eventId, body });
    const expected = createHmac('sha256', secret).update(body).digest('hex');
    expect(h['X-Service-Signature']).toBe(`sha256=${expected}`);
  });

  it('a tampered body fails stripe, standardwebhooks, the legacy check and our verifier', async () => {
    const secret = generateWebhookSecret();
    const h = await signDelivery({ secret, eventId, body });
    const tampered = body.replace('reply.received', 'reply.deleted');
    expect(() => Stripe.webhooks.constructEvent(tampered, h['X-Service-Webhook-Signature'], secret)).toThrow(
      /No signatures found matching/,
    );
    expect(() => new Webhook(secret).verify(tampered, h)).toThrow(/No matching signature/);
    expect(h['X-Service-Signature']).not.toBe(`sha256=${createHmac('sha256', secret).update(tampered).digest('hex')}`);
    const r = await verifyServiceSignature({ secret, header: h['X-Service-Webhook-Signature'], body: tampered });
    expect(r).toEqual({ ok: false, reason: 'no matching signature' });
  });

  it('a different secret fails both libraries', async () => {
    const h = await signDelivery({ secret: generateWebhookSecret(), eventId, body });
    const other = generateWebhookSecret();
    expect(() => Stripe.webhooks.constructEvent(body, h['X-Service-Webhook-Signature'], other)).toThrow();
    expect(() => new Webhook(other).verify(body, h)).toThrow();
  });

  it('rotation: signing with [new, old] gives two v1 entries that each secret verifies', async () => {
    const oldSecret = generateWebhookSecret();
    const newSecret = generateWebhookSecret();
    const h = await signDelivery({ secret: [newSecret, oldSecret], eventId, body });
    expect(h['X-Service-Webhook-Signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(h['webhook-signature']).toMatch(/^v1,\S+ v1,\S+$/);
    for (const secret of [newSecret, oldSecret]) {
      expect(Stripe.webhooks.constructEvent(body, h['X-Service-Webhook-Signature'], secret).id).toBe('evt_123');
      expect((new Webhook(secret).verify(body, h) as { id: string }).id).toBe('evt_123');
      expect((await verifyServiceSignature({ secret, header: h['X-Service-Webhook-Signature'], body })).ok).toBe(true);
    }
    // Legacy header can hold one signature only: the first (newest) secret's.
    expect(h['X-Service-Signature']).toBe(`sha256=${createHmac('sha256', newSecret).update(body).digest('hex')}`);
  });
});

describe('verifyServiceSignature', () => {
  const t = 1_700_000_000;

  it('accepts our header, a Uint8Array body, and a receiver holding [new, old] secrets', async () => {
    const secret = generateWebhookSecret();
    const h = await signDelivery({ secret, eventId, body, timestamp: t });
    const header = h['X-Service-Webhook-Signature'];
    expect(await verifyServiceSignature({ secret, header, body, now: t + 10 })).toEqual({ ok: true, timestamp: t });
    expect((await verifyServiceSignature({ secret, header, body: new TextEncoder().encode(body), now: t })).ok).toBe(true);
    const r = await verifyServiceSignature({ secret: [generateWebhookSecret(), secret], header, body, now: t });
    expect(r.ok).toBe(true);
  });

  it('accepts a stripe-generated header (same scheme), with extra v1 and unknown-scheme entries', async () => {
    const secret = generateWebhookSecret();
    const stripeHeader = Stripe.webhooks.generateTestHeaderString({ payload: body, secret, timestamp: t });
    expect((await verifyServiceSignature({ secret, header: stripeHeader, body, now: t })).ok).toBe(true);
    const sig = stripeHeader.split('v1=')[1];
    const header = `t=${t},v0=deadbeef,v1=${'0'.repeat(64)},v1=${sig}`;
    expect((await verifyServiceSignature({ secret, header, body, now: t })).ok).toBe(true);
  });

  it('enforces the tolerance in both directions; Infinity disables it', async () => {
    const secret = generateWebhookSecret();
    const header = (await signDelivery({ secret, eventId, body, timestamp: t }))['X-Service-Webhook-Signature'];
    expect(await verifyServiceSignature({ secret, header, body, now: t + 301 })).toMatchObject({ ok: false });
    expect(await verifyServiceSignature({ secret, header, body, now: t - 301 })).toMatchObject({ ok: false });
    expect((await verifyServiceSignature({ secret, header, body, now: t + 30, toleranceSec: 10 })).ok).toBe(false);
    expect((await verifyServiceSignature({ secret, header, body, now: t + 10 ** 6, toleranceSec: Infinity })).ok).toBe(
      true,
    );
  });

  it('rejects malformed headers', async () => {
    const secret = generateWebhookSecret();
    const sig = (await signDelivery({ secret, eventId, body, timestamp: t }))['X-Service-Webhook-Signature'];
    const v1 = sig.split(',')[1];
    for (const header of [null, '', 'garbage', `v1=${v1.slice(3)}`, `t=${t}`, `t=abc,${v1}`, `t=${t},t=${t},${v1}`]) {
      expect((await verifyServiceSignature({ secret, header, body, now: t })).ok, String(header)).toBe(false);
    }
  });
});
