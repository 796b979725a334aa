import { workerApp } from '../../lib/runtime/worker';
import { mcpGroup } from './app';

export default workerApp([mcpGroup]);
