// vitest setup file: whatever the code under test prints also goes to this run's log capture, which the global
// teardown scans for secrets (test/helpers/secret_scan.ts).
import { appendFileSync } from 'node:fs';
import { format } from 'node:util';
import { inject } from 'vitest';
import { logFile } from './secret_scan';

const file = logFile(inject('logDir'));
for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) {
  const original = console[method].bind(console);
  console[method] = (...args: unknown[]) => {
    appendFileSync(file, format(...args) + '\n');
    original(...args);
  };
}
