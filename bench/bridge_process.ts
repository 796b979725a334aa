// The Upstash REST bridge in a process of its own, for the benchmarks: in production Upstash is another service,
// so its work must not share the measured server's event loop. Started by bench/adapters.ts over IPC: it answers
// 'stats' with the requests served so far and stops when its parent disconnects.
import { startUpstashBridge } from '../test/infra/upstash_bridge';

const [redisUrl, token] = process.argv.slice(2);
const bridge = await startUpstashBridge({ redisUrl, token });
process.on('message', (m) => {
  if (m === 'stats') process.send?.({ requests: bridge.stats.requests });
});
process.on('disconnect', () => void bridge.close().then(() => process.exit(0)));
process.send?.({ url: bridge.url });
