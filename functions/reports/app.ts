import { newGroup } from '../../lib/http/env';
import { registerGetReport } from './get_report';
import { registerListReports } from './list_reports';

export const reportsGroup = newGroup();
registerListReports(reportsGroup);
registerGetReport(reportsGroup);
