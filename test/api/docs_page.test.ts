// /docs is Scalar's API reference served from the installed package (same origin, no CDN), under a CSP that lets the
// page run only its own origin's script: checked over HTTP on both tiers, in the Worker build (the bundle is uploaded
// as a text module and the Worker stays under Cloudflare's size limit), in workerd (integration tier), and rendered
// in headless Chromium when /usr/bin/chromium exists (operations shown, a request tried, no CSP violation).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { WebSocket } from 'ws';
import type { z } from '@hono/zod-openapi';
import { SuggestBody } from '../../functions/ai/schema';
import { Campaign } from '../../functions/campaigns/schema';
import { Lead, UpdateLeadBody } from '../../functions/leads/schema';
import { SendBody, SentResponse } from '../../functions/leads/sending_schema';
import { MeResponse } from '../../functions/me/get_me';
import { CreateWebhookBody } from '../../functions/webhooks/schema';
import { SCALAR_VERSION } from '../../lib/http/docs_assets';
import { COMPONENT_EXAMPLES } from '../../lib/http/examples';
import { ErrorSchema } from '../../lib/http/openapi';
import { serveNode } from '../../scripts/node_server';
import { startTestEnv, TIER, type TestEnv } from '../helpers/harness';
import { newTenant } from '../helpers/tenant';
import { startWranglerDev } from '../helpers/wrangler_dev';

const BUNDLE = 'node_modules/@scalar/api-reference/dist/browser/standalone.js';
const bundleText = () => readFileSync(BUNDLE, 'utf8');
const CHROMIUM = '/usr/bin/chromium';

let env: TestEnv;
beforeAll(async () => {
  env = await startTestEnv();
});
afterAll(() => env.close());

describe('/docs over HTTP', () => {
  it('answers HTML that loads the reference from its own origin, with nothing external and no inline script', async () => {
    const t = await newTenant(env);
    const page = await t.call('GET', '/docs', { key: null });
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const scripts = [...page.text.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.map((s) => s[1].trim())).toEqual([
      expect.stringMatching(/^id="api-reference" type="application\/json" data-url="\/openapi.json" data-configuration="/),
      `src="/docs/scalar.js?v=${SCALAR_VERSION}"`,
    ]);
    expect(scripts.every((s) => s[2].trim() === '')).toBe(true);
    expect(page.text).not.toMatch(/https?:\/\//);
    expect(page.text).not.toMatch(/\s(on\w+)=/i);
    const config = JSON.parse(scripts[0][1].match(/data-configuration="([^"]*)"/)![1].replaceAll('&quot;', '"'));
    expect(config).toMatchObject({ withDefaultFonts: false, telemetry: false, agent: { disabled: true } });
    expect(config.proxyUrl).toBeUndefined();
  });

  it("lets /docs run only its own origin's scripts, and API answers none", async () => {
    const t = await newTenant(env);
    const csp = (await t.call('GET', '/docs', { key: null })).headers.get('content-security-policy')!;
    const directives = Object.fromEntries(csp.split(';').map((d) => d.trim().split(/\s+/)).map(([name, ...values]) => [name, values]));
    expect(directives['default-src']).toEqual(["'none'"]);
    expect(directives['script-src']).toEqual(["'self'"]);
    expect(directives['connect-src']).toEqual(["'self'"]);
    expect(directives['frame-ancestors']).toEqual(["'none'"]);
    for (const values of Object.values(directives)) expect(values.join(' ')).not.toMatch(/https?:|\*|unsafe-eval/);
    const api = (await t.call('GET', '/v1/me')).headers.get('content-security-policy')!;
    expect(api).toContain("default-src 'none'");
    expect(api).not.toContain('script-src');
    expect(api).not.toContain('unsafe-inline');
  });

  it('serves the installed Scalar bundle as JavaScript with a long cache lifetime', async () => {
    const t = await newTenant(env);
    const page = await t.call('GET', '/docs', { key: null });
    const src = /<script src="([^"]+)"/.exec(page.text)![1];
    const script = await t.call('GET', src, { key: null });
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(script.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(script.headers.get('x-content-type-options')).toBe('nosniff');
    expect(script.text).toBe(bundleText());
    expect(JSON.parse(readFileSync('node_modules/@scalar/api-reference/package.json', 'utf8')).version).toBe(SCALAR_VERSION);
  });

  it('documents every operation under a tag, with examples that are valid requests and answers', async () => {
    const t = await newTenant(env);
    const doc = (await t.call('GET', '/openapi.json', { key: null })).json;
    for (const [path, methods] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) expect(op.tags?.length, `${method} ${path}`).toBeGreaterThan(0);
    }
    const schemas: Record<string, z.ZodType> = {
      Lead,
      UpdateLead: UpdateLeadBody,
      Campaign,
      SendReply: SendBody,
      ReplySent: SentResponse,
      SuggestRequest: SuggestBody,
      CreateWebhook: CreateWebhookBody,
      Me: MeResponse,
      Error: ErrorSchema,
    };
    expect(Object.keys(schemas)).toEqual(expect.arrayContaining(Object.keys(COMPONENT_EXAMPLES)));
    for (const [name, schema] of Object.entries(schemas)) {
      const example = doc.components.schemas[name]?.example;
      expect(example, name).toBeDefined();
      const parsed = schema.safeParse(example);
      expect(parsed.success, `${name}: ${parsed.error?.message}`).toBe(true);
    }
  });
});

describe.skipIf(TIER !== 'embedded')('the Worker build', () => {
  it('uploads the bundle as a text module beside the code and stays under the Workers size limit', () => {
    const outdir = mkdtempSync(join(tmpdir(), 'docs-worker-'));
    try {
      const run = spawnSync('npx', ['wrangler', 'deploy', '--dry-run', '--env', 'me', '--outdir', outdir], {
        encoding: 'utf8',
        env: { ...process.env, WRANGLER_SEND_METRICS: 'false', XDG_CONFIG_HOME: `${process.cwd()}/.wrangler/config`, NO_COLOR: '1', FORCE_COLOR: '0' },
        timeout: 120_000,
      });
      const output = run.stdout + run.stderr;
      expect(run.status, output).toBe(0);
      const modules = readdirSync(outdir).filter((f) => f.endsWith('standalone.js'));
      expect(modules, output).toHaveLength(1);
      expect(readFileSync(join(outdir, modules[0]), 'utf8')).toBe(bundleText());
      expect(readFileSync(join(outdir, 'index.js'), 'utf8')).not.toContain('scalar-style'); // not bundled as code
      const gzipKiB = Number(/Total Upload: [\d.]+ KiB \/ gzip: ([\d.]+) KiB/.exec(output)?.[1]);
      // Cloudflare's limit on the compressed Worker: 3 MB on the free plan (10 MB paid).
      expect(gzipKiB).toBeGreaterThan(0);
      expect(gzipKiB).toBeLessThan(3 * 1024);
    } finally {
      rmSync(outdir, { recursive: true, force: true });
    }
  }, 180_000);
});

describe.skipIf(TIER !== 'integration')('the me Worker in workerd (wrangler dev)', () => {
  it('serves /docs and the bundle from the text module', async () => {
    const worker = await startWranglerDev(['--env', 'me'], {
      DATABASE_URL: inject('itDatabaseUrl'),
      NEON_WS_PROXY: `127.0.0.1:${inject('wsRelayPort')}/v1`,
      NEON_INSECURE_WS: 'true',
      UPSTASH_REDIS_REST_URL: inject('upstashUrl'),
      UPSTASH_REDIS_REST_TOKEN: inject('upstashToken'),
      ENCRYPTION_KEY: 'b'.repeat(64),
      LOG_LEVEL: 'warn',
    });
    try {
      const page = await fetch(`${worker.base}/docs`);
      expect(page.status, worker.output()).toBe(200);
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
      const src = /<script src="([^"]+)"/.exec(await page.text())![1];
      const script = await fetch(worker.base + src);
      expect([script.status, script.headers.get('content-type'), script.headers.get('cache-control')]).toEqual([200, 'text/javascript; charset=utf-8', 'public, max-age=31536000, immutable']);
      expect(await script.text()).toBe(bundleText());
      const wrong = await fetch(`${worker.base}/healthz`, { method: 'POST' });
      expect([wrong.status, wrong.headers.get('allow')]).toEqual([405, 'GET, HEAD']);
    } finally {
      worker.stop();
    }
  }, 120_000);
});

describe.skipIf(TIER !== 'embedded' || !existsSync(CHROMIUM))('rendered in headless Chromium', () => {
  it('shows the operations grouped by tag and sends a tried request to this origin, with no CSP violation', async () => {
    const server = await serveNode(env.services, '127.0.0.1', 0);
    const browser = await openChromium();
    try {
      const page = await browser.page(`http://127.0.0.1:${server.port}/docs#tag/me/GET/v1/me`);
      expect(await page.until(`document.body.innerText.includes('Test Request')`)).toBe(true);
      const sidebar: string = await page.evaluate(`document.body.innerText`);
      for (const tag of ['me', 'leads', 'replies', 'campaigns', 'reports', 'webhooks', 'crm', 'admin']) expect(sidebar).toMatch(new RegExp(`^${tag}$`, 'm'));
      expect(sidebar).toContain("The calling key's identity");
      expect(sidebar).toContain(`curl http://127.0.0.1:${server.port}/v1/me`);
      expect(sidebar).toContain('"read_only": false'); // the response example
      await page.evaluate(`[...document.querySelectorAll('button')].find((b) => b.textContent.includes('Test Request')).click()`);
      expect(await page.until(`[...document.querySelectorAll('button')].some((b) => /^\\s*Send/.test(b.textContent))`)).toBe(true);
      await page.evaluate(`[...document.querySelectorAll('button')].find((b) => /^\\s*Send/.test(b.textContent)).click()`);
      // No key entered: the service's own 401 envelope comes back into the request client.
      expect(await page.until(`document.body.innerText.includes('missing X-Service-Key header')`)).toBe(true);
      writeFileSync('/tmp/docs_page_render.png', await page.screenshot());
      const problems = browser.problems();
      expect(problems.filter((p) => /Content Security Policy|Refused to|blocked/i.test(p)), problems.join('\n')).toEqual([]);
      expect(browser.exceptions()).toEqual([]);
    } finally {
      await browser.close();
      await new Promise((resolve) => server.close(resolve));
    }
  }, 120_000);
});

/** Just enough of the Chrome DevTools Protocol (over the `ws` client) to open a page, script it and watch it. */
async function openChromium() {
  const profile = mkdtempSync(join(tmpdir(), 'docs-chromium-'));
  const chrome = spawn(CHROMIUM, ['--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-port=0', `--user-data-dir=${profile}`, '--window-size=1400,1000', 'about:blank'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const endpoint = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`chromium did not start: ${seen}`)), 30_000);
    chrome.stderr!.on('data', (d) => {
      seen += d;
      const m = /DevTools listening on (ws:\S+)/.exec(seen);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
  });
  const ws = new WebSocket(endpoint);
  await new Promise((resolve) => ws.once('open', resolve));
  let next = 0;
  const pending = new Map<number, (m: any) => void>();
  const logged: string[] = [];
  const thrown: string[] = [];
  ws.on('message', (raw) => {
    const m = JSON.parse(String(raw));
    if (m.id !== undefined) return pending.get(m.id)?.(m);
    if (m.method === 'Log.entryAdded') logged.push(m.params.entry.text);
    if (m.method === 'Runtime.consoleAPICalled' && ['error', 'warning'].includes(m.params.type)) logged.push(m.params.args.map((a: any) => a.value ?? a.description).join(' '));
    if (m.method === 'Runtime.exceptionThrown') thrown.push(m.params.exceptionDetails.exception?.description ?? m.params.exceptionDetails.text);
  });
  const send = (method: string, params: object = {}, sessionId?: string) =>
    new Promise<any>((resolve) => {
      const id = ++next;
      pending.set(id, (m) => (pending.delete(id), resolve(m.result)));
      ws.send(JSON.stringify({ id, method, params, sessionId }));
    });
  return {
    async page(url: string) {
      const { targetId } = await send('Target.createTarget', { url: 'about:blank' });
      const { sessionId } = await send('Target.attachToTarget', { targetId, flatten: true });
      for (const domain of ['Runtime', 'Log', 'Page']) await send(`${domain}.enable`, {}, sessionId);
      await send('Page.navigate', { url }, sessionId);
      const evaluate = async (expression: string) => (await send('Runtime.evaluate', { expression, returnByValue: true, awaitPromise: true }, sessionId))?.result?.value;
      return {
        evaluate,
        async until(expression: string, ms = 30_000) {
          for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) if (await evaluate(expression)) return true;
          return false;
        },
        async screenshot() {
          return Buffer.from((await send('Page.captureScreenshot', { format: 'png' }, sessionId)).data, 'base64');
        },
      };
    },
    problems: () => logged.filter((text) => !/Failed to load resource: the server responded with a status of 401/.test(text)),
    exceptions: () => thrown,
    async close() {
      ws.close();
      if (chrome.exitCode === null && chrome.signalCode === null) {
        const exited = new Promise((resolve) => chrome.once('exit', resolve));
        chrome.kill();
        await exited; // chromium writes its profile until it is gone
      }
      // Its helper processes can still write for a moment after the main one exits: retry, and never fail the test
      // over a temporary folder.
      try {
        rmSync(profile, { recursive: true, force: true, maxRetries: 10, retryDelay: 200 });
      } catch {
        /* left in the OS temp dir */
      }
    },
  };
}
