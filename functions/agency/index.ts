import { workerApp } from '../../lib/runtime/worker';
import { agencyGroup } from './app';

export default workerApp([agencyGroup]);
