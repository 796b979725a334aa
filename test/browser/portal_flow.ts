// What a person does in the portal and at the review desk, as browser steps their browser tests share.
import type { Page, Response } from 'playwright-core';
import { expect } from 'vitest';

// The project's TypeScript has no DOM library (the service targets Workers). These are the few browser globals the
// functions below hand to page.evaluate, which runs them inside the page; declared here, nothing is emitted.
declare const document: {
  cookie: string;
  activeElement: unknown;
  scrollingElement: { scrollWidth: number } | null;
  querySelector(selector: string): { remove(): void } | null;
};
declare const window: { innerWidth: number };
declare const location: { pathname: string };

/**
 * Runs an action that submits a form or follows a link and returns the main document's final response (after a
 * 303, the page it led to). The wait starts before the action, so a fast answer cannot be missed.
 */
export async function navigation(page: Page, act: () => Promise<unknown>): Promise<Response> {
  const [response] = await Promise.all([page.waitForNavigation(), act()]);
  expect(response, 'the action should load a document').not.toBeNull();
  return response!;
}

/** Opens an admin-issued sign-in link and presses its button, as a person would; ends on the face's home (portal: the leads list). */
export async function signInByLink(page: Page, signInUrl: string): Promise<Response> {
  const landing = await page.goto(signInUrl);
  expect(landing?.status()).toBe(200);
  return navigation(page, () => page.getByRole('button', { name: 'Sign in' }).click());
}

export const heading = (page: Page) => page.locator('h1').innerText();

/** Presses the button whose accessible name contains `name` and returns the document it led to. */
export const pressButton = (page: Page, name: string) => navigation(page, () => page.getByRole('button', { name }).click());

/** The lead ids of the list page's rows, top to bottom. */
export const listedLeadIds = (page: Page) => page.locator('tr[data-lead-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-lead-id')));

/** Whether the page scrolls sideways (the phone check): the document is wider than the window. */
export const horizontalOverflow = (page: Page) =>
  // The path is for the failure message; a sign-in token is a credential and stays out of it.
  page.evaluate(() => ({ scrollWidth: document.scrollingElement!.scrollWidth, innerWidth: window.innerWidth, url: location.pathname.replace(/\/sign-in\/.*$/, '/sign-in/[token]') }));

/** The cookies a script on the page can read (an HttpOnly cookie is not among them). */
export const scriptReadableCookies = (page: Page) => page.evaluate(() => document.cookie);

/** Removes the first element matching `selector` from the page, as a forger's copy of the page would lack it. */
export const removeFromPage = (page: Page, selector: string) =>
  page.evaluate((s) => {
    const el = document.querySelector(s);
    if (!el) throw new Error(`nothing matches ${s}`);
    el.remove();
  }, selector);

/** Presses Tab until the element matching `selector` has the focus (at most 40 times): reachable by keyboard. */
export async function tabTo(page: Page, selector: string) {
  for (let i = 0; i < 40; i++) {
    if (await page.locator(selector).evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  throw new Error(`${selector} never got the focus by Tab`);
}
