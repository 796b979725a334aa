import { decryptSecret, encryptSecret, importEncryptionKey } from './secrets';

/**
 * Encrypts secrets kept at rest (webhook secrets, provider credentials, outbound tokens). During a rotation of
 * ENCRYPTION_KEY the old key stays readable as ENCRYPTION_KEY_PREVIOUS: new blobs always use the current key,
 * old ones still decrypt, and `reencrypt` moves one stored blob to the current key (lib/crypto/rotate.ts).
 */
export type SecretBox = {
  /** Resolves once both keys are imported; rejects naming the variable whose value is malformed. */
  ready(): Promise<void>;
  encrypt(plaintext: string): Promise<string>;
  decrypt(blob: string): Promise<string>;
  /** The blob under the current key, or null when it already is (AES-GCM tells the keys apart). */
  reencrypt(blob: string): Promise<string | null>;
};

export function createSecretBox(rawKey: string, previousRawKey?: string): SecretBox {
  const key = imported(rawKey, 'ENCRYPTION_KEY');
  const previous = previousRawKey ? imported(previousRawKey, 'ENCRYPTION_KEY_PREVIOUS') : undefined;
  const open = async (blob: string): Promise<{ plaintext: string; current: boolean }> => {
    try {
      return { plaintext: await decryptSecret(await key, blob), current: true };
    } catch (err) {
      if (!previous) throw err;
      // A malformed blob fails the same way under both keys; only a second authentication failure is final.
      return { plaintext: await decryptSecret(await previous, blob), current: false };
    }
  };
  return {
    ready: async () => {
      await key;
      await previous;
    },
    encrypt: async (plaintext) => encryptSecret(await key, plaintext),
    decrypt: async (blob) => (await open(blob)).plaintext,
    reencrypt: async (blob) => {
      const { plaintext, current } = await open(blob);
      return current ? null : encryptSecret(await key, plaintext);
    },
  };
}

/**
 * The key, imported once. A malformed value rejects every use with an error naming its variable, and is handled
 * here too, so a key that is never used (a previous key with nothing left to read) cannot crash the process.
 */
function imported(raw: string, name: string): Promise<CryptoKey> {
  const key = importEncryptionKey(raw).catch((err: Error) => {
    throw new Error(err.message.replace(/^ENCRYPTION_KEY\b/, name));
  });
  key.catch(() => undefined);
  return key;
}
