import type { AuthContext } from '../auth/keys';
import { approveDraft } from './approve_draft';
import { replyAuditActor } from './audit';
import { rejectDraft } from './reject_draft';
import { sendReply } from './send_reply';
import { skipReply } from './skip_reply';
import type { SendDeps, SendInput } from './types';

// The answers of the governed-send routes, built in one place for both faces: the core REST routes
// (functions/leads) and the reply tools (functions/agency/tools) call these, so a key gets the same HTTP status and
// the same JSON through either (agency-operator.md §2). `via` names the face only for the agency audit actor.

/** Who answers: the request's services, its key (the Decision Trail actor and the autonomy level) and the face. */
export type ReplyCall = { deps: SendDeps; auth: AuthContext; via: 'rest' | 'mcp' };

/** POST /v1/replies/{id}/send: 200 sent, 202 queued for review (success with pending). */
export async function sendReplyAnswer(call: ReplyCall, replyId: string, input: SendInput) {
  const body = await sendReply({ deps: call.deps, actor: call.auth, replyId, input, audit: replyAuditActor(call.auth, call.via) });
  return { status: body.status === 'sent' ? (200 as const) : (202 as const), body };
}

/** POST /v1/replies/{id}/approve: the queued draft sent, 200. */
export async function approveReplyAnswer(call: ReplyCall, replyId: string, input: { approver: string }) {
  const body = await approveDraft({ deps: call.deps, actor: call.auth, replyId, approver: input.approver, audit: replyAuditActor(call.auth, call.via) });
  return { status: 200 as const, body };
}

/** POST /v1/replies/{id}/reject: the draft removed, 200. */
export async function rejectReplyAnswer(call: ReplyCall, replyId: string, input: { approver: string; reason: string }) {
  const body = await rejectDraft({
    db: call.deps.db,
    actor: call.auth,
    replyId,
    approver: input.approver,
    reason: input.reason,
    now: call.deps.clock.now(),
    audit: replyAuditActor(call.auth, call.via),
  });
  return { status: 200 as const, body };
}

/** POST /v1/replies/{id}/skip: the decision recorded, 200. */
export async function skipReplyAnswer(call: ReplyCall, replyId: string, input: { reason: string }) {
  const body = await skipReply({ db: call.deps.db, actor: call.auth, replyId, reason: input.reason, now: call.deps.clock.now(), audit: replyAuditActor(call.auth, call.via) });
  return { status: 200 as const, body };
}
