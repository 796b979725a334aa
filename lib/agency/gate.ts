import type { AuthContext } from '../auth/keys';
import { scopeRefusal } from '../auth/scopes';
import { ApiError } from '../errors';
import type { Operation } from './operation';

/**
 * The agency gate, before validation (agency-operator.md §2): feature → scope → Studio module → read-only key →
 * demo organization. Tenant checks (another organization's or client's id is not_found) belong to the verbs.
 * REST and MCP both call this, so a refusal has one code and one message on both faces.
 */
export function gate(op: Pick<Operation, 'scope' | 'studio' | 'write'>, auth: AuthContext) {
  requireAgencyFeature(auth);
  if (scopeRefusal(auth, op.scope) === 'missing') throw new ApiError('insufficient_scope', `this key lacks the ${op.scope} scope`);
  if (op.studio && !auth.features.studio) throw new ApiError('studio_not_enabled', 'the Studio module is not enabled for this organization');
  if (op.write && auth.readOnly) throw new ApiError('read_only_key', 'this key is read-only (an audit key): it may not use write tools');
  if (op.write && auth.orgDemo) throw new ApiError('demo_org', 'this is a demo organization: write tools are not available');
}

export function requireAgencyFeature(auth: AuthContext) {
  if (!auth.features.agency_tools) throw new ApiError('feature_not_enabled', 'the agency tool server (agency_tools) is not enabled for this organization');
}

/** Whether the key would pass the gate's key checks (what tools/list shows it). A demo org still lists writes. */
export function keyMayUse(op: Pick<Operation, 'scope' | 'studio' | 'write'>, auth: AuthContext): boolean {
  if (scopeRefusal(auth, op.scope) === 'missing') return false;
  if (op.studio && !auth.features.studio) return false;
  if (op.write && auth.readOnly) return false;
  return true;
}
