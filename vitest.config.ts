import { defineConfig } from 'vitest/config';

// Two tiers of the same tests: `embedded` always (PGlite, in-process limits: no servers needed), and
// `integration` when TEST_DATABASE_URL is set (Neon driver → relay → PostgreSQL, Upstash clients → bridge → Redis).
const integration = Boolean(process.env.TEST_DATABASE_URL);

export default defineConfig({
  test: {
    globalSetup: ['test/helpers/global_setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    maxWorkers: 2,
    projects: [
      { extends: true, test: { name: 'embedded', include: ['test/**/*.test.ts'], env: { TIER: 'embedded' } } },
      ...(integration
        ? [{ extends: true, test: { name: 'integration', include: ['test/api/**/*.test.ts', 'test/integration/**/*.test.ts'], env: { TIER: 'integration' } } }]
        : []),
    ],
  },
});
