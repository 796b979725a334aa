export const SCOPES = [
  'suggest',
  'leads.read',
  'leads.write',
  'replies.send',
  'replies.approve',
  'campaigns.read',
  'reports.read',
  'webhooks.manage',
  'crm.read',
  'crm.write',
  'agency.read',
  'agency.write',
  'agency.plans.approve',
] as const;
export type Scope = (typeof SCOPES)[number];
export const GRANTABLE_SCOPES = ['*', ...SCOPES] as const;

// Scopes that change state: a read-only key never holds them, whatever its scope list says.
const WRITE_SCOPES = new Set<Scope>([
  'suggest',
  'leads.write',
  'replies.send',
  'replies.approve',
  'webhooks.manage',
  'crm.write',
  'agency.write',
  'agency.plans.approve',
]);

// `*` is "every core endpoint": CRM and agency access must always be granted by name (core §5).
const NEVER_WILDCARD = (s: Scope) => s.startsWith('crm.') || s.startsWith('agency.');

type ScopedKey = { scopes: string[]; readOnly: boolean };

/**
 * Why a key may not use a scope: `missing` (not in its list, `*` included), `read_only` (listed, but the key is
 * read-only and the scope writes), or null when it may. Missing is said first (the agency spec's gate order:
 * insufficient_scope before read_only_key).
 */
export function scopeRefusal(key: ScopedKey, scope: Scope): 'missing' | 'read_only' | null {
  const listed = key.scopes.includes(scope) || (key.scopes.includes('*') && !NEVER_WILDCARD(scope));
  if (!listed) return 'missing';
  if (key.readOnly && WRITE_SCOPES.has(scope)) return 'read_only';
  return null;
}

export function hasScope(key: ScopedKey, scope: Scope): boolean {
  return scopeRefusal(key, scope) === null;
}
