import { execFileSync } from 'node:child_process';
import puppeteer, { type Browser, type Page } from 'puppeteer-core';

// Debian's chromium, headless, driven by puppeteer-core (test/browser/setup.sh installs it).

function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH;
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim();
    } catch {
      // not this one
    }
  }
  throw new Error('no chromium: run test/browser/setup.sh (npm run test:browser does)');
}

export async function launch(): Promise<Browser> {
  return puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    // As root (CI), Chromium's sandbox cannot start.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), '--disable-dev-shm-usage', '--disable-gpu'],
    timeout: 30_000,
  });
}

/** Every console error and uncaught exception of the page, with the URL it is about. */
export function consoleErrors(page: Page): { text: string; url: string }[] {
  const errors: { text: string; url: string }[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') errors.push({ text: message.text(), url: message.location().url ?? '' });
  });
  page.on('pageerror', (error) => errors.push({ text: `uncaught: ${(error as Error).message}`, url: '' }));
  return errors;
}

/** The element a user finds by its role and accessible name (button text, aria-label). */
export const byRole = (role: string, name: string) => `::-p-aria([name="${name}"][role="${role}"])`;
