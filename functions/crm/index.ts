import { workerApp } from '../../lib/runtime/worker';
import { crmGroup } from './app';

export default workerApp([crmGroup]);
