import { workerApp } from '../../lib/runtime/worker';
import { inboundGroup } from './app';

export default workerApp([inboundGroup]);
