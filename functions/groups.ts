import { adminGroup } from './admin/app';
import { campaignsGroup } from './campaigns/app';
import { leadsGroup } from './leads/app';
import { meGroup } from './me/app';
import { reportsGroup } from './reports/app';

/** Every resource group: served together by the Node server, one Worker each on Cloudflare. */
export const allGroups = [meGroup, leadsGroup, campaignsGroup, reportsGroup, adminGroup];
