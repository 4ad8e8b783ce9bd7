/**
 * Test kit: headless Chromium (Debian's package, installed by scripts/chromium.sh) driven by
 * playwright-core through its executable path; nothing is downloaded. Tests skip with `reason`
 * when no browser is installed.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';

export type BrowserAvailability = { available: true; executablePath: string } | { available: false; reason: string };

export function chromiumAvailability(env: NodeJS.ProcessEnv = process.env): BrowserAvailability {
  for (const candidate of [env.CHROMIUM_PATH, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (candidate && existsSync(candidate)) return { available: true, executablePath: candidate };
  }
  return { available: false, reason: 'no Chromium: run scripts/chromium.sh build (installs Debian\'s chromium with apt-get) or set CHROMIUM_PATH' };
}

export async function launchChromium(executablePath: string): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  // --no-sandbox: the tests run as root in a container, where Chromium's sandbox cannot start.
  return chromium.launch({ executablePath, headless: true, args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'] });
}

/** `.artifacts/<area>/` at the repository root (gitignored): screenshots a test leaves for people. */
export function artifactPath(area: string, file: string): string {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
  return path.join(root, '.artifacts', area, file);
}
