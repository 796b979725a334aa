// How this project starts a browser: Debian's chromium (a browser download cannot happen here) through
// playwright-core. Shared by the browser tests and `npm run screenshots`; no vitest in here.
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

// Without the background-networking flags Chromium keeps dialing Google's hosts, which a closed network refuses;
// playwright-core adds --headless, --no-sandbox (chromiumSandbox: false) and a new empty --user-data-dir itself.
export const CHROMIUM_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export const PHONE = { width: 390, height: 844 };
export const DESKTOP = { width: 1280, height: 900 };

/** Why this machine cannot run a browser, or null when it can. */
export function missingBrowser(): string | null {
  return existsSync(CHROMIUM_PATH) ? null : `no Chromium at ${CHROMIUM_PATH} (install Debian's chromium package or set CHROMIUM_PATH)`;
}

export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, chromiumSandbox: false, headless: true });
}
