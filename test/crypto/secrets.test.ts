import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  base64ToBytes,
  decryptSecret,
  encryptSecret,
  importEncryptionKey,
  randomToken,
  sha256Hex,
  timingSafeEqualStr,
} from '../../lib/crypto/secrets';

const rawKey = randomBytes(32);
const b64Key = rawKey.toString('base64');

describe('importEncryptionKey', () => {
  it('accepts base64, base64url, unpadded and hex forms of the same 32 bytes', async () => {
    const forms = [
      b64Key,
      rawKey.toString('base64url'),
      b64Key.replace(/=+$/, ''),
      rawKey.toString('hex'),
      rawKey.toString('hex').toUpperCase(),
      `  ${b64Key}\n`,
    ];
    const blob = await encryptSecret(await importEncryptionKey(forms[0]), 'whsec_abc');
    for (const form of forms) {
      const key = await importEncryptionKey(form);
      expect(key.algorithm).toMatchObject({ name: 'AES-GCM', length: 256 });
      expect(key.extractable).toBe(false);
      expect(await decryptSecret(key, blob)).toBe('whsec_abc');
    }
  });

  it.each([
    ['empty', '', /ENCRYPTION_KEY is empty/],
    ['16 bytes base64', randomBytes(16).toString('base64'), /32 bytes.*decodes to 16 bytes/],
    ['48 bytes base64', randomBytes(48).toString('base64'), /decodes to 48 bytes/],
    ['31 bytes hex', randomBytes(31).toString('hex'), /32 bytes/],
    ['not base64', 'this is not a key!!', /neither hex nor base64/],
    ['a passphrase', 'correct horse battery staple', /ENCRYPTION_KEY must be exactly 32 bytes/],
  ])('rejects %s with a clear error', async (_name, raw, message) => {
    await expect(importEncryptionKey(raw)).rejects.toThrow(message);
  });

  it('never echoes the key in the error', async () => {
    const bad = randomBytes(20).toString('hex');
    await expect(importEncryptionKey(bad)).rejects.toThrow(expect.objectContaining({ message: expect.not.stringContaining(bad) }));
  });
});

describe('encryptSecret / decryptSecret', () => {
  it('round-trips, including unicode and the empty string, with a fresh IV each time', async () => {
    const key = await importEncryptionKey(b64Key);
    for (const text of ['whsec_' + randomBytes(32).toString('base64'), 'ünïcødé 🚀', '']) {
      const blob = await encryptSecret(key, text);
      expect(blob).toMatch(/^v1\.[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]+$/);
      expect(blob).not.toContain(text || '\u0000');
      expect(await decryptSecret(key, blob)).toBe(text);
    }
    expect(await encryptSecret(key, 'same')).not.toBe(await encryptSecret(key, 'same'));
  });

  it('detects tampering with the ciphertext, the tag, the iv and the version', async () => {
    const key = await importEncryptionKey(b64Key);
    const blob = await encryptSecret(key, 'whsec_secret_value');
    const [v, iv, ct] = blob.split('.');
    const flip = (b64: string, at: number) => {
      const bytes = base64ToBytes(b64);
      bytes[at] ^= 1;
      return Buffer.from(bytes).toString('base64url');
    };
    const ctLen = base64ToBytes(ct).length;
    for (const bad of [
      `${v}.${iv}.${flip(ct, 0)}`,
      `${v}.${iv}.${flip(ct, ctLen - 1)}`, // inside the GCM tag
      `${v}.${flip(iv, 0)}.${ct}`,
      `${v}.${iv}.${Buffer.from(base64ToBytes(ct).subarray(0, ctLen - 1)).toString('base64url')}`,
    ]) {
      await expect(decryptSecret(key, bad)).rejects.toThrow(/authentication failed/);
    }
    await expect(decryptSecret(key, `v2.${iv}.${ct}`)).rejects.toThrow(/unsupported key version/);
    for (const malformed of ['', 'v1', 'v1.abc', 'v1.a.b.c', `v1.${iv}.!!!`, `v1.AAAA.${ct}`, `v1.${iv}.AAAA`]) {
      await expect(decryptSecret(key, malformed)).rejects.toThrow(/malformed/);
    }
  });

  it('fails with a different key', async () => {
    const blob = await encryptSecret(await importEncryptionKey(b64Key), 'whsec_x');
    const other = await importEncryptionKey(randomBytes(32).toString('hex'));
    await expect(decryptSecret(other, blob)).rejects.toThrow(/wrong ENCRYPTION_KEY or tampered/);
  });
});

describe('timingSafeEqualStr', () => {
  it('compares exactly', () => {
    expect(timingSafeEqualStr('abc', 'abc')).toBe(true);
    expect(timingSafeEqualStr('', '')).toBe(true);
    expect(timingSafeEqualStr('abc', 'abd')).toBe(false);
    expect(timingSafeEqualStr('abc', 'ab')).toBe(false);
    expect(timingSafeEqualStr('ab', 'abc')).toBe(false);
    expect(timingSafeEqualStr('abc', 'abc\u0000')).toBe(false);
    expect(timingSafeEqualStr('é', 'e\u0301')).toBe(false);
  });
});

describe('sha256Hex', () => {
  it('matches known vectors', async () => {
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    expect(await sha256Hex('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });
});

describe('randomToken', () => {
  it('base62 carries at least the requested entropy and only uses [A-Za-z0-9]', () => {
    const t = randomToken(32);
    expect(t).toMatch(/^[A-Za-z0-9]{43}$/); // ceil(256 / log2 62) = 43
    expect(randomToken(16)).toHaveLength(22);
    expect(randomToken(32)).not.toBe(t);
  });

  it('base64url is the unpadded encoding of the bytes', () => {
    const t = randomToken(32, 'base64url');
    expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(t, 'base64url')).toHaveLength(32);
  });

  it('base62 has no modulo bias (plain byte % 62 would favour A-H by 25%)', () => {
    const counts = new Map<string, number>();
    const sample = Array.from({ length: 1000 }, () => randomToken(64)).join('');
    for (const c of sample) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    const mean = (chars: string) => [...chars].reduce((n, c) => n + (counts.get(c) ?? 0), 0) / chars.length;
    const ratio = mean('ABCDEFGH') / mean('IJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789');
    expect(ratio).toBeGreaterThan(0.92);
    expect(ratio).toBeLessThan(1.08);
  });

  it('rejects bad sizes and alphabets', () => {
    for (const n of [0, -1, 1.5, Number.NaN, 10_000]) expect(() => randomToken(n)).toThrow(/bytes must be/);
    expect(() => randomToken(8, 'hex' as never)).toThrow(/unknown alphabet/);
  });
});
