// The governed-send verbs shared by REST handlers, MCP tools and queue consumers (follow-ups).
export { sendReply } from './send_reply';
export { approveDraft } from './approve_draft';
export { rejectDraft } from './reject_draft';
export { skipReply } from './skip_reply';
export { listReviewQueue } from './review_queue';
export { approveReplyAnswer, rejectReplyAnswer, sendReplyAnswer, skipReplyAnswer, type ReplyCall } from './answers';
export { claimSend, LEAD_COOLDOWN_SEC, SENDS_PER_MINUTE } from './limits';
export type { SendActor, SendDeps, SendInput, SentResult, QueuedResult } from './types';
