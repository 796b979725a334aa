import { workerApp } from '../../lib/runtime/worker';
import { leadsGroup } from './app';

export default workerApp([leadsGroup]);
