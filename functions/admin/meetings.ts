import { z } from '@hono/zod-openapi';
import type { Group } from '../../lib/http/env';
import { errors, json, jsonBody } from '../../lib/http/openapi';
import { markMeetingBooked, MeetingSchema } from '../../lib/course/meetings';
import { adminRoute } from './route';

const Body = z
  .object({
    booked_at: z.iso.datetime({ offset: true }).optional().openapi({ description: 'when the meeting was booked; absent = now; not in the future. meetings_per_month counts it in this month' }),
    meeting_at: z.iso.datetime({ offset: true }).optional().openapi({ description: 'when the meeting takes place, if known' }),
    reply_id: z.uuid().optional().openapi({ description: 'the (hot) reply that led to it; must be a reply of this lead' }),
  })
  .strict();

const mark = adminRoute({
  method: 'post',
  path: '/admin/v1/leads/{lead_id}/meeting',
  summary: "Record that a lead (a prospect who replied) booked a meeting: what the client's meetings_per_month agreement counts. One per lead; a repeat answers the recorded meeting (200) and changes nothing",
  request: { params: z.object({ lead_id: z.uuid() }), body: jsonBody(Body) },
  responses: {
    201: json(z.object({ meeting: MeetingSchema }), 'Recorded'),
    200: json(z.object({ meeting: MeetingSchema }), 'Already recorded (unchanged)'),
    ...errors([409, 'conflict (the lead’s campaign belongs to no client)']),
  },
});

export function registerMeetings(app: Group) {
  app.openapi(mark, async (c) => {
    const { db, clock } = c.get('services');
    const body = c.req.valid('json');
    const out = await markMeetingBooked(db, {
      leadId: c.req.valid('param').lead_id,
      bookedAt: body.booked_at ? new Date(body.booked_at) : undefined,
      meetingAt: body.meeting_at ? new Date(body.meeting_at) : undefined,
      replyId: body.reply_id,
      now: clock.now(),
    });
    return c.json({ meeting: out.meeting }, out.created ? 201 : 200);
  });
}
