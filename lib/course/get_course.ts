import { eq } from 'drizzle-orm';
import { z } from 'zod';
import { organizations } from '../../schema';
import { findClient } from '../agency/clients/view';
import type { AgencyCall } from '../agency/operation';
import { activeAgreements } from '../agreements/list';
import { AGREEMENT_KINDS } from '../agreements/view';
import { courseOf } from './compute';
import { COURSE_STATUSES } from './rule';

/** agency-operator.md §4; actual and expected_to_date are null for a custom agreement (no data source). */
export const CourseItemSchema = z.object({
  client_id: z.string(),
  agreement_id: z.string(),
  kind: z.enum(AGREEMENT_KINDS),
  target: z.number(),
  actual: z.number().nullable(),
  expected_to_date: z.number().nullable(),
  status: z.enum(COURSE_STATUSES),
});

export async function getCourse(call: AgencyCall, input: { client_id?: string }) {
  const { db } = call.services;
  const { orgId } = call.auth;
  if (input.client_id) await findClient(db, orgId, input.client_id);
  const [org] = await db.select({ timezone: organizations.timezone }).from(organizations).where(eq(organizations.id, orgId));
  const entries = await courseOf(db, org?.timezone ?? 'UTC', await activeAgreements(db, orgId, input.client_id), call.now);
  return {
    course: entries.map(({ agreement: a, figures: f }) => ({
      client_id: a.clientId,
      agreement_id: a.id,
      kind: a.kind,
      target: Number(a.target),
      actual: f.actual,
      expected_to_date: f.expected_to_date,
      status: f.status,
    })),
  };
}
