// Outbound webhook signatures. One `whsec_<base64>` secret drives three schemes
// so receivers can use whatever library they already have:
//  - X-Service-Webhook-Signature: Stripe's scheme, keyed with the WHOLE secret
//    string (so stripe.webhooks.constructEvent works unchanged);
//  - X-Service-Signature: legacy GitHub-style body HMAC, same key;
//  - webhook-*: Standard Webhooks, keyed with the base64-decoded secret body.
import { base64ToBytes, bytesToBase64, bytesToHex, timingSafeEqualStr } from '../crypto/secrets';

const encoder = new TextEncoder();
const PREFIX = 'whsec_';
// Standard Webhooks asks for 24..64 byte keys; we generate 32.
const MIN_KEY_BYTES = 24;
const MAX_KEY_BYTES = 64;

export function generateWebhookSecret(): string {
  return PREFIX + bytesToBase64(crypto.getRandomValues(new Uint8Array(32)));
}

/**
 * The Standard Webhooks key, or null when the secret can't serve that scheme.
 * Requiring canonical base64 (re-encoding gives the same text) makes sure every
 * receiver's base64 decoder derives the same key bytes as we do.
 */
function standardKeyBytes(secret: string): Uint8Array<ArrayBuffer> | null {
  if (typeof secret !== 'string' || !secret.startsWith(PREFIX)) return null;
  const body = secret.slice(PREFIX.length);
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = base64ToBytes(body);
  } catch {
    return null;
  }
  if (bytesToBase64(bytes) !== body) return null;
  if (bytes.length < MIN_KEY_BYTES || bytes.length > MAX_KEY_BYTES) return null;
  return bytes;
}

export function isValidWebhookSecret(secret: string): boolean {
  return standardKeyBytes(secret) !== null;
}

async function hmacSha256(key: Uint8Array<ArrayBuffer>, data: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const k = await crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', k, data));
}

function concatBytes(prefix: string, body: string | Uint8Array): Uint8Array<ArrayBuffer> {
  const head = encoder.encode(prefix);
  const tail = typeof body === 'string' ? encoder.encode(body) : body;
  const out = new Uint8Array(head.length + tail.length);
  out.set(head, 0);
  out.set(tail, head.length);
  return out;
}

function asList(secret: string | readonly string[]): readonly string[] {
  const list = typeof secret === 'string' ? [secret] : secret;
  if (list.length === 0) throw new Error('webhook signing: no secret given');
  return list;
}

export interface SignDeliveryInput {
  /**
   * The endpoint's secret. During a rotation pass [newest, previous]: each
   * scheme that supports several signatures gets one per secret; the legacy
   * X-Service-Signature can only carry one and uses the first.
   */
  secret: string | readonly string[];
  eventId: string;
  /** The exact bytes that will be sent as the request body. */
  body: string;
  /** Unix seconds; defaults to now. */
  timestamp?: number;
}

export async function signDelivery(input: SignDeliveryInput): Promise<Record<string, string>> {
  const secrets = asList(input.secret);
  const t = input.timestamp ?? Math.floor(Date.now() / 1000);
  // Catches Date.now() passed by mistake, which would sign a time ~50,000 years out.
  if (!Number.isSafeInteger(t) || t < 0 || t > 1e11) {
    throw new Error('signDelivery: timestamp must be integer unix seconds');
  }
  if (!input.eventId || /[\s\x00-\x1f\x7f]/.test(input.eventId)) {
    // It goes into header values verbatim, where whitespace/control chars break or get trimmed.
    throw new Error('signDelivery: eventId must be non-empty without whitespace or control characters');
  }

  const serviceSigs: string[] = [];
  const standardSigs: string[] = [];
  let legacy = '';
  for (const [i, secret] of secrets.entries()) {
    const stdKey = standardKeyBytes(secret);
    if (!stdKey) throw new Error(`signDelivery: secret #${i} is not a whsec_ secret with a base64 key of 24-64 bytes`);
    const stringKey = encoder.encode(secret);
    serviceSigs.push(`v1=${bytesToHex(await hmacSha256(stringKey, concatBytes(`${t}.`, input.body)))}`);
    standardSigs.push(
      `v1,${bytesToBase64(await hmacSha256(stdKey, concatBytes(`${input.eventId}.${t}.`, input.body)))}`,
    );
    if (i === 0) legacy = `sha256=${bytesToHex(await hmacSha256(stringKey, encoder.encode(input.body)))}`;
  }

  return {
    'Content-Type': 'application/json',
    'X-Service-Event-Id': input.eventId,
    'X-Service-Webhook-Signature': `t=${t},${serviceSigs.join(',')}`,
    'X-Service-Signature': legacy,
    'webhook-id': input.eventId,
    'webhook-timestamp': String(t),
    'webhook-signature': standardSigs.join(' '),
  };
}

export interface VerifyServiceSignatureInput {
  /** One secret, or several while the receiver accepts both old and new. */
  secret: string | readonly string[];
  /** The X-Service-Webhook-Signature header value. */
  header: string | null | undefined;
  /** The raw request body, before any JSON parsing. */
  body: string | Uint8Array;
  /** Allowed |now - t| in seconds (default 300). Pass Infinity to skip the replay check. */
  toleranceSec?: number;
  /** Unix seconds; defaults to now. */
  now?: number;
}

export type VerifyResult = { ok: true; timestamp: number } | { ok: false; reason: string };

/**
 * Verifies X-Service-Webhook-Signature. Accepts any number of v1 entries (the
 * sender signs with old and new secret during rotation) and ignores unknown
 * schemes so we can add v2 later without breaking receivers.
 */
export async function verifyServiceSignature(input: VerifyServiceSignatureInput): Promise<VerifyResult> {
  const { header, body, toleranceSec = 300 } = input;
  if (!header) return { ok: false, reason: 'missing signature header' };

  let t: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === 't') {
      // Two timestamps would let an attacker pick the one that passes the window check.
      if (t !== null || !/^\d{1,12}$/.test(v)) return { ok: false, reason: 'bad timestamp in header' };
      t = Number(v);
    } else if (k === 'v1') {
      candidates.push(v.toLowerCase());
    }
  }
  if (t === null) return { ok: false, reason: 'no timestamp in header' };
  if (candidates.length === 0) return { ok: false, reason: 'no v1 signature in header' };

  const now = input.now ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > toleranceSec) return { ok: false, reason: 'timestamp outside tolerance' };

  const signed = concatBytes(`${t}.`, body);
  for (const secret of asList(input.secret)) {
    const expected = bytesToHex(await hmacSha256(encoder.encode(secret), signed));
    // Check every candidate (no early exit inside) so timing doesn't tell which one matched.
    let match = false;
    for (const c of candidates) match = timingSafeEqualStr(c, expected) || match;
    if (match) return { ok: true, timestamp: t };
  }
  return { ok: false, reason: 'no matching signature' };
}
