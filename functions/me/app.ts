import { newGroup } from '../../lib/http/env';
import { registerGetMe } from './get_me';

export const meGroup = newGroup();
registerGetMe(meGroup);
