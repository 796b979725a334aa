import { newGroup } from '../../lib/http/env';
import { registerRunJob } from './run_job';

/** Jobs: the endpoint QStash delivers scheduled work to (webhook deliveries, retries, due steps). */
export const jobsGroup = newGroup();
registerRunJob(jobsGroup);
