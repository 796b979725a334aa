import { newGroup } from '../../lib/http/env';
import { registerSuggestFeedback } from './feedback';
import { registerSuggest } from './suggest';

/** AI: reply suggestions (1 credit each) and feedback the assistant learns from (scope suggest). */
export const aiGroup = newGroup();
registerSuggest(aiGroup);
registerSuggestFeedback(aiGroup);
