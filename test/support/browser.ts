import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * `it` for a test that needs Chromium: a visible skip where it is not installed, except with CI=true, where the test
 * runs and fails on the missing browser.
 */
export const itInBrowser: typeof it = existsSync(CHROMIUM) || process.env.CI === 'true' ? it : it.skip;
if (!existsSync(CHROMIUM)) console.warn(`SKIPPED: the tests that need Chromium: no Chromium at ${CHROMIUM}; install Debian's chromium (see .ci/run)`);

/** Headless Chromium with the flags this sandboxed, offline machine needs. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`no Chromium at ${CHROMIUM}; install Debian's chromium (see .ci/run)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
