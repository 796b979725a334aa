import { newGroup } from '../../lib/http/env';
import { registerListCampaigns } from './list_campaigns';

export const campaignsGroup = newGroup();
registerListCampaigns(campaignsGroup);
