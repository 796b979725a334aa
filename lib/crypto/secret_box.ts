import { decryptSecret, encryptSecret, importEncryptionKey } from './secrets';

/** Encrypts secrets kept at rest (webhook secrets, provider credentials, outbound tokens). */
export type SecretBox = { encrypt(plaintext: string): Promise<string>; decrypt(blob: string): Promise<string> };

export function createSecretBox(rawKey: string): SecretBox {
  const key = importEncryptionKey(rawKey);
  return {
    encrypt: async (plaintext) => encryptSecret(await key, plaintext),
    decrypt: async (blob) => decryptSecret(await key, blob),
  };
}
