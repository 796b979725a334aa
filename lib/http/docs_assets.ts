// The API reference UI: Scalar's standalone browser bundle from the installed npm package, served by the service
// itself at /docs/scalar.js (no CDN). Its version is in the script URL, so browsers may keep it for a year.
import scalarPackage from '../../node_modules/@scalar/api-reference/package.json';

export const SCALAR_PATH = '/docs/scalar.js';
export const SCALAR_VERSION: string = scalarPackage.version;
export const scalarUrl = () => `${SCALAR_PATH}?v=${encodeURIComponent(SCALAR_VERSION)}`;

/** Only in workerd; Node 21+ has a navigator too, but its userAgent names Node. */
const onWorkers = () => (globalThis as { navigator?: { userAgent?: string } }).navigator?.userAgent === 'Cloudflare-Workers';

let script: Promise<string> | undefined;

/** The bundle's text, loaded once per process or isolate (4.3 MB; Cloudflare compresses it on the way out). */
export function scalarScript(): Promise<string> {
  script ??= (onWorkers() ? import('./scalar_text').then((m) => textModule(m.default)) : readFromPackage()).catch((err) => {
    script = undefined; // a failed read is retried by the next request
    throw err;
  });
  return script;
}

function textModule(text: unknown): string {
  if (typeof text === 'string') return text;
  throw new Error('the Scalar bundle was built into the Worker as code: wrangler.toml needs its [[rules]] type "Text" entry');
}

// Under Node the package's file is read as it is: importing it would run it (it is a browser script).
async function readFromPackage(): Promise<string> {
  const { readFile } = await import('node:fs/promises');
  return readFile(new URL('../../node_modules/@scalar/api-reference/dist/browser/standalone.js', import.meta.url), 'utf8');
}
