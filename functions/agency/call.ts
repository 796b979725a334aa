import type { Context } from 'hono';
import { actorOf, type AgencyCall } from '../../lib/agency/operation';
import type { AppEnv } from '../../lib/http/env';

/** The agency call of one request: its services, key, face and the actor its audit rows name. */
export function callOf(c: Context<AppEnv>, via: 'rest' | 'mcp'): AgencyCall {
  const services = c.get('services');
  const auth = c.get('auth');
  return { services, auth, via, actor: actorOf(auth, via), now: services.clock.now(), requestId: c.get('requestId') };
}
