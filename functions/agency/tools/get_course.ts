import { z } from 'zod';
import { idArg } from '../../../lib/agency/args';
import { defineOperation } from '../../../lib/agency/define';
import { CourseItemSchema, getCourse } from '../../../lib/course/get_course';

export const getCourseOp = defineOperation({
  name: 'get_course',
  method: 'GET',
  path: '/v1/agency/course',
  scope: 'agency.read',
  toolset: 'plans',
  studio: true,
  write: false,
  summary: 'How each active agreement is going this month: actual, expected to date and status (on track, at risk, off track, not started).',
  description:
    'How each active agreement goes this calendar month (organization timezone), from real data: actual, expected_to_date (target prorated, plus earlier shortfall with catch_up spread) and status: on track (actual ≥ expected), at risk (≥ 80 %), off track, or not started (also custom agreements, which have no data). client_id narrows.',
  input: z.object({ client_id: idArg('client').optional() }).strict(),
  output: z.object({ course: z.array(CourseItemSchema) }),
  run: async (call, input) => ({ body: await getCourse(call, input) }),
});
