import type { PageArgs } from '../../../lib/web/face';

/** What the queue page confirms after an action (post/redirect/get): one of these, never free text from the URL. */
export const DONE = {
  approved: 'Approved and sent.',
  edited: 'Your edit was saved and sent.',
  rejected: 'Draft rejected: nothing was sent and the reply is unanswered again.',
  skipped: 'Reply skipped: it will not be answered.',
} as const;
export type Done = keyof typeof DONE;

/** 303 to the queue with the confirmation. */
export const backToQueue = ({ c, base }: PageArgs, done: Done, replyId: string) =>
  c.redirect(`${base}/replies?${new URLSearchParams({ done, reply: replyId })}`, 303);
