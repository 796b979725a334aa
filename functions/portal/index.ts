import { workerApp } from '../../lib/runtime/worker';
import { deskGroup } from '../desk/app';
import { portalGroup } from './app';

// The desk's sign-in and landing ride on this Worker until the desk gets its own (it shares lib/web with the portal).
export default workerApp([portalGroup, deskGroup]);
