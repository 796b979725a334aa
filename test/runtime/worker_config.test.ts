// On Workers the production adapters and secrets are required: a missing or weak one is a configuration error at
// the first request, never a silent fallback (in-memory limits would limit nothing across isolates).
import { describe, expect, it } from 'vitest';
import { workerServices } from '../../lib/runtime/worker';

const complete = {
  DATABASE_URL: 'postgres://u:p@db.example.com/app',
  UPSTASH_REDIS_REST_URL: 'https://redis.example.com',
  UPSTASH_REDIS_REST_TOKEN: 'token',
  ENCRYPTION_KEY: 'a'.repeat(64),
  ADMIN_TOKEN: 'x'.repeat(32),
};
const without = (name: keyof typeof complete) => Object.fromEntries(Object.entries(complete).filter(([k]) => k !== name));

describe('Worker configuration', () => {
  it('builds the services from a complete configuration, with the admin token optional', async () => {
    for (const env of [{ ...complete }, without('ADMIN_TOKEN')]) {
      const { services, dispose } = workerServices(env);
      expect(services.limits.kind).toBe('upstash');
      await dispose();
    }
  });

  it.each([
    ['DATABASE_URL', without('DATABASE_URL'), /DATABASE_URL is required/],
    ['Upstash', without('UPSTASH_REDIS_REST_TOKEN'), /UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN are required/],
    ['ENCRYPTION_KEY', without('ENCRYPTION_KEY'), /ENCRYPTION_KEY is required/],
    ['a short ADMIN_TOKEN', { ...complete, ADMIN_TOKEN: 'dev-secret' }, /ADMIN_TOKEN must be at least 32 characters/],
  ])('refuses to run without %s', (_, env, message) => {
    expect(() => workerServices(env)).toThrow(message);
  });
});
