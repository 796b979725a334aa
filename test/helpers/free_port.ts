import { createServer } from 'node:net';

/**
 * A port the kernel just handed out on 127.0.0.1, for a server whose configuration must name its own origin
 * (PUBLIC_BASE_URL, PORTAL_URL) before it listens. Another process could take it in between: callers retry.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}
