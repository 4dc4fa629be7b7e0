import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium } from './browser.js';

/** The CSP header as directive → sources. */
export const policyOf = (header: string | null): Map<string, string[]> =>
  new Map(
    (header ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/) as [string, ...string[]])
      .map(([name, ...sources]) => [name, sources]),
  );

/**
 * What a page did wrong: console errors, uncaught exceptions, CSP violations (an init script runs outside the page's
 * CSP), dialogs; and every refused call as `status path`, which each test compares with the refusals it expects
 * (Chrome also logs those as "Failed to load resource", which is why that console line is left to this list).
 */
export async function watch(page: Page) {
  const problems: string[] = [];
  const refused: string[] = [];
  page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource') && problems.push(`console: ${m.text()}`));
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    dialog.dismiss().catch(() => undefined); // the page may close first
  });
  page.on('response', (r) => r.status() >= 400 && refused.push(`${r.status()} ${new URL(r.url()).pathname}`));
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI))",
  });
  // Before sign-in the page asks whether it is signed in: 401 is the contract's "no".
  return { problems, refused, unexpected: (...expected: string[]) => refused.filter((r) => r !== '401 /console/session' && !expected.includes(r)) };
}

/** Signs in to the console with the keyboard alone: the credential field is the page's first stop, Enter submits. */
export async function signInByKeyboard(page: Page, credential: string): Promise<void> {
  await page.locator('#credential').waitFor();
  await page.keyboard.press('Tab');
  if ((await page.evaluate(() => (globalThis as any).document.activeElement.id)) !== 'credential')
    throw new Error('Tab did not reach the credential field first');
  await page.keyboard.type(credential);
  await page.keyboard.press('Enter');
  await page.locator('h1', { hasText: 'Decisions' }).waitFor();
}

/**
 * One Chromium for a test file, closed after it. `open(url, credential)` signs a new context in at `url` by keyboard
 * (with no credential, it stays at the sign-in form), watched from its first request (`before` adds listeners first);
 * `options` go to the context (viewport, timezoneId).
 */
export function consoleBrowser() {
  let browser: Browser | undefined;
  afterAll(async () => browser?.close());
  return async function open(url: string, credential: string | undefined, options: BrowserContextOptions & { before?: (page: Page) => void } = {}) {
    const { before, ...contextOptions } = options;
    browser ??= await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...contextOptions });
    const page = await context.newPage();
    const watched = await watch(page);
    before?.(page);
    await page.goto(url);
    if (credential !== undefined) await signInByKeyboard(page, credential);
    return { page, close: () => context.close(), ...watched };
  };
}
