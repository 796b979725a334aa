import { workerApp } from '../../lib/runtime/worker';
import { adminGroup } from './app';

export default workerApp([adminGroup]);
