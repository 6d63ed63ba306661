// Debian's chromium, driven by playwright-core (which never downloads a browser), as the browser tests launch it.
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** A headless chromium for a test file; close it in afterAll. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu'] });
}
