// Every test process appends what the service logged (structured logs and anything printed to the console) and
// every secret the tests created (API keys, webhook and provider secrets) to files in one directory; at the end
// of the run the global teardown fails the run if any secret, or anything shaped like one, appears in the logs.
import { appendFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const SECRET_SHAPES = [/svc_(live|partner)_[A-Za-z0-9]{20,}/, /whsec_[A-Za-z0-9+/=]{20,}/];

export function logFile(dir: string) {
  mkdirSync(dir, { recursive: true });
  return join(dir, `log-${process.pid}.txt`);
}

export function recordSecret(dir: string | undefined, secret: string) {
  if (!dir || !secret) return;
  mkdirSync(dir, { recursive: true });
  appendFileSync(join(dir, `secrets-${process.pid}.txt`), secret + '\n');
}

/** Returns one line per leak found: which secret (shortened) or shape, and in which log file. */
export function scanForSecrets(dir: string, alsoSecret: string[] = []): string[] {
  if (!existsSync(dir)) return [];
  const files = readdirSync(dir);
  const secrets = new Set(alsoSecret.filter((s) => s.length >= 8));
  for (const f of files.filter((f) => f.startsWith('secrets-'))) {
    for (const line of readFileSync(join(dir, f), 'utf8').split('\n')) if (line.trim()) secrets.add(line.trim());
  }
  const leaks: string[] = [];
  for (const f of files.filter((f) => f.startsWith('log-'))) {
    const text = readFileSync(join(dir, f), 'utf8');
    for (const s of secrets) if (text.includes(s)) leaks.push(`${s.slice(0, 12)}… in ${f}`);
    for (const shape of SECRET_SHAPES) {
      const m = text.match(shape);
      if (m) leaks.push(`${m[0].slice(0, 12)}… (shape ${shape}) in ${f}`);
    }
  }
  return leaks;
}

export function countSecrets(dir: string): { secrets: number; logBytes: number } {
  if (!existsSync(dir)) return { secrets: 0, logBytes: 0 };
  let secrets = 0;
  let logBytes = 0;
  for (const f of readdirSync(dir)) {
    const text = readFileSync(join(dir, f), 'utf8');
    if (f.startsWith('secrets-')) secrets += text.split('\n').filter(Boolean).length;
    else logBytes += text.length;
  }
  return { secrets, logBytes };
}
