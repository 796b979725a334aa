import type { Operation } from '../../../lib/agency/operation';

/** The reply tools: the core reply routes' verbs under the key's reply scopes (no second send path). */
export const REPLY_OPERATIONS = [] as unknown as Operation[];
