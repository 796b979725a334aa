import { workerApp } from '../../lib/runtime/worker';
import { campaignsGroup } from './app';

export default workerApp([campaignsGroup]);
