import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`; .ci/run installs it). */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Headless Chromium with the flags this sandboxed, offline machine needs; undefined (a skip) when it is not
 * installed, except with CI=true, where a missing browser is a failure.
 */
export async function launchChromium(): Promise<Browser | undefined> {
  if (!existsSync(CHROMIUM)) {
    const message = `no Chromium at ${CHROMIUM}; install Debian's chromium (see .ci/run)`;
    if (process.env.CI === 'true') throw new Error(`${message}; with CI=true this is a failure, not a skip`);
    console.warn(`SKIPPED: ${message}`);
    return undefined;
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}
