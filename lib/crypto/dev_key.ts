// Node only: without ENCRYPTION_KEY the embedded setup generates a key once into DATA_DIR (operator.md §2),
// so secrets written by one `npm run dev` can be read by the next.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bytesToHex } from './secrets';

export function devEncryptionKey(dataDir: string): string {
  const path = join(dataDir, 'encryption.key');
  if (existsSync(path)) return readFileSync(path, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const key = bytesToHex(crypto.getRandomValues(new Uint8Array(32)));
  writeFileSync(path, key + '\n', { mode: 0o600 });
  return key;
}
