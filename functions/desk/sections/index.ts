import { reviewSection } from './review';
import type { DeskSection } from './section';

/** The desk's queues, in the order the home page shows them. A new queue is one more entry here. */
export const DESK_SECTIONS: DeskSection[] = [reviewSection];
