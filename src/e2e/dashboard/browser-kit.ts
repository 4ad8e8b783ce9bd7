/**
 * Shared by the dashboard's browser tests: `kruise up` as a child process (its kubeconfig token, CA
 * and real kubectl), headless Chromium with one context, and the sign-in through the page's form.
 */
import assert from 'node:assert/strict';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { kubectlFor } from '../../testing/kubectl.js';
import { startUp, stopChild, type UpProcess } from '../../testing/process.js';
import { launchChromium } from '../../testing/browser.js';

export interface DashboardUp {
  up: UpProcess; dir: string; token: string; ca: Buffer; browser: Browser; context: BrowserContext;
  kubectl: ReturnType<typeof kubectlFor>;
  dashboardUrl: string;
  apply(yaml: string): Promise<void>;
  /** Opens the dashboard in `page`, signing in through the form unless the context has a session. */
  signIn(page: Page): Promise<void>;
  stop(): Promise<void>;
}

export async function startDashboardUp(executablePath: string, extraArgs: string[] = []): Promise<DashboardUp> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'kruise-dashboard-'));
  const up = await startUp(['--port', '0', '--data-dir', dir, '--in-memory', '--log-level', 'warn', ...extraArgs], 60_000);
  const kc = parse(await readFile(path.join(dir, 'kubeconfig'), 'utf8')) as { clusters: { cluster: { 'certificate-authority-data': string } }[]; users: { user: { token: string } }[] };
  const token = kc.users[0]!.user.token;
  const ca = Buffer.from(kc.clusters[0]!.cluster['certificate-authority-data'], 'base64');
  const kubectl = kubectlFor(path.join(dir, 'kubeconfig'), path.join(dir, 'kube-cache'));
  const browser = await launchChromium(executablePath);
  const context = await browser.newContext({ ignoreHTTPSErrors: true, viewport: { width: 1400, height: 1000 } });
  const dashboardUrl = `${up.url}/dashboard/`;
  return {
    up, dir, token, ca, browser, context, kubectl, dashboardUrl,
    apply: async (yaml) => {
      const r = await kubectl(['apply', '-f', '-'], { input: yaml });
      assert.equal(r.code, 0, r.stderr);
    },
    signIn: async (page) => {
      const first = await page.goto(dashboardUrl);
      if (first?.status() !== 200) {
        assert.equal(first?.status(), 401, 'the page is not readable before signing in');
        await page.fill('input[name=token]', token);
        await Promise.all([page.waitForURL(dashboardUrl), page.click('button[type=submit]')]);
      }
      await page.waitForSelector('[data-testid=connection]:text("live")');
    },
    stop: async () => {
      await browser.close();
      await stopChild(up.child);
    },
  };
}
