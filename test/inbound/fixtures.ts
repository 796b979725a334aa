// The documented webhook bodies in test/fixtures/inbound, read fresh each time so a test can edit its copy.
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIR = fileURLToPath(new URL('../fixtures/inbound/', import.meta.url));

export type Json = Record<string, any>;

/** `fixture('smartlead_email_reply')` → a new copy of test/fixtures/inbound/smartlead_email_reply.json. */
export function fixture(name: string): Json {
  return JSON.parse(readFileSync(join(DIR, `${name}.json`), 'utf8')) as Json;
}

/** Every fixture of one provider, by name (`instantly_reply_received`, …). */
export function fixturesOf(provider: string): string[] {
  return readdirSync(DIR)
    .filter((f) => f.startsWith(`${provider}_`) && f.endsWith('.json'))
    .map((f) => f.slice(0, -'.json'.length));
}

/** The fixture with the keys at the given paths (`reply_message.html`) removed. */
export function without(name: string, ...paths: string[]): Json {
  const body = fixture(name);
  for (const path of paths) {
    const keys = path.split('.');
    const last = keys.pop()!;
    const parent = keys.reduce<Json | undefined>((o, k) => o?.[k], body);
    if (parent) delete parent[last];
  }
  return body;
}

/** The fixture with the values at the given paths replaced. */
export function withValues(name: string, values: Record<string, unknown>): Json {
  const body = fixture(name);
  for (const [path, value] of Object.entries(values)) {
    const keys = path.split('.');
    const last = keys.pop()!;
    const parent = keys.reduce<Json>((o, k) => o[k], body);
    parent[last] = value;
  }
  return body;
}
