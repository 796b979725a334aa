// Portable crypto helpers: WebCrypto + btoa/atob only, so the same code runs on
// Cloudflare Workers and Node 20 (no node:crypto, no Buffer).

const encoder = new TextEncoder();
const decoder = new TextDecoder();

// Only one key version exists today. The prefix is part of the blob (and of the
// AES-GCM additional data) so a future `v2` can be added next to it and old
// blobs stay decryptable during a rotation.
const BLOB_VERSION = 'v1';
const IV_BYTES = 12; // the GCM standard nonce size; random per encryption
const GCM_TAG_BYTES = 16;

export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i++) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

export function bytesToBase64Url(bytes: Uint8Array): string {
  return bytesToBase64(bytes).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Accepts standard or URL-safe base64, padded or not; throws on anything else. */
export function base64ToBytes(text: string): Uint8Array<ArrayBuffer> {
  const std = text.replace(/-/g, '+').replace(/_/g, '/');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(std)) throw new Error('invalid base64');
  const binary = atob(std); // throws on a length that can't be base64
  const out = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) out[i] = binary.charCodeAt(i);
  return out;
}

export function bytesToHex(bytes: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < bytes.length; i++) hex += bytes[i].toString(16).padStart(2, '0');
  return hex;
}

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

/**
 * Imports ENCRYPTION_KEY (32 bytes as 64 hex chars, or base64/base64url).
 * Hex is tried first: 64 hex chars are also valid base64 (of 48 bytes), and an
 * operator who typed hex means hex. Errors never echo the key itself.
 */
export async function importEncryptionKey(raw: string): Promise<CryptoKey> {
  const value = (raw ?? '').trim();
  if (!value) throw new Error('ENCRYPTION_KEY is empty: set it to 32 random bytes as base64 or hex');
  let bytes: Uint8Array<ArrayBuffer> | null = null;
  if (/^[0-9a-fA-F]{64}$/.test(value)) {
    bytes = hexToBytes(value);
  } else {
    try {
      bytes = base64ToBytes(value);
    } catch {
      bytes = null;
    }
  }
  if (!bytes || bytes.length !== 32) {
    const got = bytes ? `decodes to ${bytes.length} bytes` : 'is neither hex nor base64';
    throw new Error(
      `ENCRYPTION_KEY must be exactly 32 bytes encoded as base64 (44 chars) or hex (64 chars); ` +
        `the given ${value.length}-char value ${got}. Generate one with: openssl rand -base64 32`,
    );
  }
  return crypto.subtle.importKey('raw', bytes, { name: 'AES-GCM' }, false, [
    'encrypt',
    'decrypt',
  ]);
}

/** Returns `v1.<base64url iv>.<base64url ciphertext+tag>`. */
export async function encryptSecret(key: CryptoKey, plaintext: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(IV_BYTES));
  const ciphertext = await crypto.subtle.encrypt(
    { name: 'AES-GCM', iv, additionalData: encoder.encode(BLOB_VERSION) },
    key,
    encoder.encode(plaintext),
  );
  return `${BLOB_VERSION}.${bytesToBase64Url(iv)}.${bytesToBase64Url(new Uint8Array(ciphertext))}`;
}

export async function decryptSecret(key: CryptoKey, blob: string): Promise<string> {
  const parts = typeof blob === 'string' ? blob.split('.') : [];
  if (parts.length !== 3) throw new Error('decryptSecret: malformed blob (expected v1.<iv>.<ciphertext>)');
  const [version, ivText, ctText] = parts;
  if (version !== BLOB_VERSION) throw new Error(`decryptSecret: unsupported key version "${version.slice(0, 10)}"`);
  let iv: Uint8Array<ArrayBuffer>;
  let ciphertext: Uint8Array<ArrayBuffer>;
  try {
    iv = base64ToBytes(ivText);
    ciphertext = base64ToBytes(ctText);
  } catch {
    throw new Error('decryptSecret: malformed blob (bad base64)');
  }
  if (iv.length !== IV_BYTES || ciphertext.length < GCM_TAG_BYTES) {
    throw new Error('decryptSecret: malformed blob (bad iv or ciphertext length)');
  }
  let plaintext: ArrayBuffer;
  try {
    plaintext = await crypto.subtle.decrypt(
      { name: 'AES-GCM', iv, additionalData: encoder.encode(version) },
      key,
      ciphertext,
    );
  } catch {
    // WebCrypto only says "OperationError"; spell out the two real causes.
    throw new Error('decryptSecret: authentication failed (wrong ENCRYPTION_KEY or tampered ciphertext)');
  }
  return decoder.decode(plaintext);
}

/**
 * Compares the UTF-8 bytes without an early exit, so timing doesn't reveal the
 * length of the matching prefix. (Length itself may leak; signatures and tokens
 * have public lengths.) Pure JS because neither runtime's native helper is portable.
 */
export function timingSafeEqualStr(a: string, b: string): boolean {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  const n = Math.max(x.length, y.length);
  let diff = x.length ^ y.length;
  for (let i = 0; i < n; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

export async function sha256Hex(text: string): Promise<string> {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(text))));
}

const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
// getRandomValues refuses more than 65536 bytes per call.
const MAX_TOKEN_BYTES = 4096;

/**
 * A random token carrying `bytes` bytes of entropy. base62 output is longer
 * than base64url for the same entropy (ceil(bytes*8 / log2 62) chars) and uses
 * rejection sampling so every character is uniformly distributed.
 */
export function randomToken(bytes: number, alphabet: 'base62' | 'base64url' = 'base62'): string {
  if (!Number.isInteger(bytes) || bytes < 1 || bytes > MAX_TOKEN_BYTES) {
    throw new Error(`randomToken: bytes must be an integer in 1..${MAX_TOKEN_BYTES}`);
  }
  if (alphabet === 'base64url') return bytesToBase64Url(crypto.getRandomValues(new Uint8Array(bytes)));
  if (alphabet !== 'base62') throw new Error(`randomToken: unknown alphabet "${String(alphabet)}"`);

  const length = Math.ceil((bytes * 8) / Math.log2(62));
  let out = '';
  while (out.length < length) {
    const pool = crypto.getRandomValues(new Uint8Array(length * 2));
    for (let i = 0; i < pool.length && out.length < length; i++) {
      // 248 = 4 * 62: values at or above it would bias the first 8 characters.
      if (pool[i] < 248) out += BASE62[pool[i] % 62];
    }
  }
  return out;
}
