import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import { campaigns, leads, meetings, replies } from '../../schema';
import { writeAudit } from '../agency/audit';
import type { Db } from '../db/types';
import { ApiError, notFound } from '../errors';

export const MeetingSchema = z.object({
  id: z.string(),
  client_id: z.string(),
  lead_id: z.string(),
  reply_id: z.string().nullable(),
  booked_at: z.string(),
  meeting_at: z.string().nullable(),
  created_at: z.string(),
});
export type MeetingView = z.infer<typeof MeetingSchema>;

const meetingView = (m: typeof meetings.$inferSelect): MeetingView => ({
  id: m.id,
  client_id: m.clientId,
  lead_id: m.leadId,
  reply_id: m.replyId,
  booked_at: m.bookedAt.toISOString(),
  meeting_at: m.meetingAt?.toISOString() ?? null,
  created_at: m.createdAt.toISOString(),
});

export type MarkMeeting = { leadId: string; bookedAt?: Date; meetingAt?: Date; replyId?: string; now: Date };

const MAX_AHEAD_MS = 5 * 60_000;

/**
 * A person records that a prospect (a core lead: someone who replied) booked a meeting; meetings_per_month counts
 * it in the month of booked_at (default now). One meeting per lead: a repeat answers the recorded one and writes
 * nothing, whatever it says, so a double click or a retried call never counts twice.
 */
export async function markMeetingBooked(db: Db, m: MarkMeeting): Promise<{ meeting: MeetingView; created: boolean }> {
  const bookedAt = m.bookedAt ?? m.now;
  if (bookedAt.getTime() > m.now.getTime() + MAX_AHEAD_MS) throw new ApiError('validation_error', 'booked_at: must not be in the future (when the meeting was booked, not when it takes place: that is meeting_at)');
  return db.transaction(async (tx) => {
    const [lead] = await tx
      .select({ id: leads.id, orgId: leads.orgId, clientId: campaigns.clientId })
      .from(leads)
      .innerJoin(campaigns, eq(campaigns.id, leads.campaignId))
      .where(eq(leads.id, m.leadId));
    if (!lead) throw notFound('lead');
    const [existing] = await tx.select().from(meetings).where(eq(meetings.leadId, lead.id));
    if (existing) return { meeting: meetingView(existing), created: false };
    if (!lead.clientId) throw new ApiError('conflict', "the lead's campaign belongs to no client, so no agreement could count the meeting; link the campaign to a client first");
    if (m.replyId) {
      const [reply] = await tx.select({ id: replies.id }).from(replies).where(and(eq(replies.id, m.replyId), eq(replies.leadId, lead.id)));
      if (!reply) throw new ApiError('validation_error', 'reply_id: not a reply of this lead');
    }
    const [row] = await tx
      .insert(meetings)
      .values({ orgId: lead.orgId, clientId: lead.clientId, leadId: lead.id, replyId: m.replyId ?? null, bookedAt, meetingAt: m.meetingAt ?? null, createdBy: 'admin', createdAt: m.now })
      .onConflictDoNothing({ target: meetings.leadId })
      .returning();
    // A concurrent first call won the unique index: answer its meeting.
    if (!row) {
      const [won] = await tx.select().from(meetings).where(eq(meetings.leadId, lead.id));
      return { meeting: meetingView(won), created: false };
    }
    await writeAudit(tx, {
      orgId: lead.orgId,
      actor: 'admin',
      action: 'meeting.booked',
      target: `lead:${lead.id}`,
      detail: { client_id: lead.clientId, meeting_id: row.id, reply_id: row.replyId, booked_at: bookedAt.toISOString(), meeting_at: row.meetingAt?.toISOString() ?? null },
      at: m.now,
    });
    return { meeting: meetingView(row), created: true };
  });
}
