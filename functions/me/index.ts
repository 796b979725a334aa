import { workerApp } from '../../lib/runtime/worker';
import { meGroup } from './app';

export default workerApp([meGroup]);
