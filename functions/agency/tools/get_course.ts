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
  description: [
    'One entry per active agreement (client_id narrows to one client), counted from real data for the current calendar month in the organization timezone:',
    'new_prospects_per_workday = leads added to the pool (not removed); replies_per_month = prospects who replied to the client\'s campaigns (first reply, absence notices left out); meetings_per_month = booked meetings (recorded by a person, or a lead the CRM moved to discovery or later).',
    'expected_to_date = the target prorated over the completed workdays (days for monthly kinds) of this month, plus with catch_up spread the shortfall of earlier months spread over this one.',
    'status: not started before the start day or while nothing is due and nothing counted; on track when actual >= expected_to_date; at risk when actual >= 80 % of it; off track below. A custom agreement has no data source: actual and expected_to_date null, status not started.',
    'A daily planner proposes catch-up steps into the client\'s plan for agreements that are off track; nothing runs without approval.',
  ].join(' '),
  input: z.object({ client_id: idArg('client').optional() }).strict(),
  output: z.object({ course: z.array(CourseItemSchema) }),
  run: async (call, input) => ({ body: await getCourse(call, input) }),
});
