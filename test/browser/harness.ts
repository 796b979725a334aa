// Browser tests: the service as a real HTTP server on 127.0.0.1 (serveNode, the Node entry point's own server) over
// the test env's services, driven by the Debian chromium through playwright-core (./chromium.ts). One server and
// one browser per file, a fresh browser context (cookies, storage) per test. Setup data goes through the test env
// as in the API tests (env.app.request); only what a person does goes through the browser.
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, it } from 'vitest';
import { serveNode } from '../../scripts/node_server';
import { startTestEnv, type TestEnv } from '../helpers/harness';
import { DESKTOP, launchChromium, missingBrowser } from './chromium';
import { freePort } from '../helpers/free_port';

export { DESKTOP, PHONE } from './chromium';

export type ServedEnv = { env: TestEnv; origin: string; close(): Promise<void> };

/**
 * The test env served on 127.0.0.1:{random}. PUBLIC_BASE_URL and PORTAL_URL name that very origin, so the
 * admin-issued sign-in links and the CRM thread_urls are addresses the browser can open, and the pages' Origin
 * check sees its own site. The port must be known before the configuration is, hence the free-port probe.
 */
export async function serveTestEnv(extraEnv: Record<string, string> = {}): Promise<ServedEnv> {
  for (let attempt = 1; ; attempt++) {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    const env = await startTestEnv({ PUBLIC_BASE_URL: origin, PORTAL_URL: `${origin}/portal`, ...extraEnv });
    try {
      const server = await serveNode(env.services, '127.0.0.1', port);
      const close = async () => {
        await new Promise<void>((resolve) => {
          server.close(() => resolve());
          (server as { closeAllConnections?: () => void }).closeAllConnections?.(); // keep-alive sockets of the browser
        });
        await env.close();
      };
      return { env, origin, close };
    } catch (err) {
      await env.close();
      if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 3) throw err;
    }
  }
}

export type BrowserSuite = {
  /** The served test env (valid inside tests and hooks). */
  readonly env: TestEnv;
  readonly origin: string;
  /** A page in a new browser context of its own (closed after the test): a person with an empty cookie jar. */
  newPage(opts?: BrowserContextOptions): Promise<Page>;
};

/**
 * `describe` for browser tests. Without a browser the suite is skipped with the reason printed, unless
 * REQUIRE_BROWSER=1 (CI), where it fails: a browser test that silently does not run proves nothing.
 */
export function describeInBrowser(name: string, body: (suite: BrowserSuite) => void) {
  const missing = missingBrowser();
  if (missing) {
    if (process.env.REQUIRE_BROWSER === '1') {
      describe(name, () => {
        it('needs a browser (REQUIRE_BROWSER=1)', () => {
          throw new Error(`REQUIRE_BROWSER=1 but ${missing}`);
        });
      });
      return;
    }
    console.warn(`[browser tests] skipping "${name}": ${missing}`);
    describe.skip(name, () => body(unavailableSuite));
    return;
  }

  describe(name, () => {
    let served: ServedEnv | undefined;
    let browser: Browser | undefined;
    let contexts: BrowserContext[] = [];
    beforeAll(async () => {
      // Both at once (each takes about a second); whichever started is closed by afterAll if the other failed.
      const [s, b] = await Promise.allSettled([serveTestEnv(), launchChromium()]);
      if (s.status === 'fulfilled') served = s.value;
      if (b.status === 'fulfilled') browser = b.value;
      if (s.status === 'rejected') throw s.reason;
      if (b.status === 'rejected') throw b.reason;
    });
    afterEach(async () => {
      await Promise.all(contexts.map((c) => c.close()));
      contexts = [];
    });
    afterAll(async () => {
      await browser?.close();
      await served?.close();
    });
    body({
      get env() {
        return served!.env;
      },
      get origin() {
        return served!.origin;
      },
      async newPage(opts = {}) {
        const context = await browser!.newContext({ viewport: DESKTOP, ...opts });
        contexts.push(context);
        return context.newPage();
      },
    });
  });
}

const unavailableSuite: BrowserSuite = {
  get env(): TestEnv {
    throw new Error('no browser');
  },
  get origin(): string {
    throw new Error('no browser');
  },
  newPage: () => Promise.reject(new Error('no browser')),
};
