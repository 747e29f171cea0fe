import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/**
 * Debian's Chromium (installed by .ci/setup-browser.sh; never a downloaded browser), headless,
 * with the flags this machine needs: no sandbox as root, and none of Chromium's background
 * connections (the network here is closed; they would fail, and be refused, many at a time).
 * Playwright gives it a new, empty profile directory and removes it on close.
 */
export async function launchChromium(): Promise<{ browser: Browser; close(): Promise<void> }> {
  if (!existsSync(CHROMIUM)) {
    throw new Error(
      `${CHROMIUM} is missing: run "bash .ci/setup-browser.sh" (npm run test:all runs it first: apt-get install chromium)`,
    );
  }
  const browser = await chromium.launch({
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
      '--disable-dev-shm-usage',
    ],
  });
  return { browser, close: () => browser.close() };
}
