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

export function hasScope(key: { scopes: string[]; readOnly: boolean }, scope: Scope): boolean {
  if (key.readOnly && WRITE_SCOPES.has(scope)) return false;
  if (key.scopes.includes(scope)) return true;
  return key.scopes.includes('*') && !NEVER_WILDCARD(scope);
}
