import { workerApp } from '../../lib/runtime/worker';
import { bridgeGroup } from './app';

export default workerApp([bridgeGroup]);
