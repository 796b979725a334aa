import { requireAgencyFeature } from '../../lib/agency/gate';
import { newGroup } from '../../lib/http/env';
import { registerOperation } from './rest';
import { OPERATIONS } from './table';

/**
 * The agency API (`/v1/agency/*`): every entry of the operation table as a REST route. The feature switch
 * covers every path under it, unknown ones included (agency-operator.md §1).
 */
export const agencyGroup = newGroup();
agencyGroup.use('/v1/agency/*', async (c, next) => {
  requireAgencyFeature(c.get('auth'));
  await next();
});
for (const op of OPERATIONS) if (op.rest === 'agency') registerOperation(agencyGroup, op);
