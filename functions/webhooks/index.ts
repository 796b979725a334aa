import { workerApp } from '../../lib/runtime/worker';
import { webhooksGroup } from './app';

export default workerApp([webhooksGroup]);
