import { defineConfig } from 'vitest/config';

// Two tiers of the same tests: `embedded` always (PGlite, in-process limits: no servers needed), and
// `integration` when TEST_DATABASE_URL is set (Neon driver → relay → PostgreSQL, Upstash clients → bridge → Redis).
const integration = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    setupFiles: ['test/helpers/capture_console.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    projects: [
      { extends: true as const, test: { name: 'embedded', globalSetup: ['test/helpers/global_setup.ts'], include: ['test/**/*.test.ts'], env: { TIER: 'embedded' } } },
      ...(integration
        ? [{ extends: true as const, test: { name: 'integration', globalSetup: ['test/helpers/global_setup.ts'], include: ['test/api/**/*.test.ts', 'test/agency/**/*.test.ts', 'test/bridge/**/*.test.ts', 'test/integration/**/*.test.ts', 'test/worker/**/*.test.ts'], env: { TIER: 'integration' } } }]
        : []),
    ],
  },
});
