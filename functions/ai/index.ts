import { workerApp } from '../../lib/runtime/worker';
import { aiGroup } from './app';

export default workerApp([aiGroup]);
