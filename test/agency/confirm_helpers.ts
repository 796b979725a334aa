import { resolveApiKey } from '../../lib/auth/keys';
import { actorOf, type AgencyCall } from '../../lib/agency/operation';
import type { TestEnv } from '../helpers/harness';

/** An agency call as a route would build it, for driving lib/agency mechanisms with a tool of the test's own. */
export async function agencyCallFor(env: TestEnv, secret: string, via: 'rest' | 'mcp' = 'rest'): Promise<AgencyCall> {
  const resolved = await resolveApiKey(env.services.db, env.services.keyCache, secret, Date.now());
  if (!resolved) throw new Error('key did not resolve');
  return { services: env.services, auth: resolved.auth, via, actor: actorOf(resolved.auth, via), now: env.clock.now() };
}
