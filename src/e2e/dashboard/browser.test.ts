/**
 * The dashboard in headless Chromium against `kruise up` (docs/design/dashboard.md §8): anonymous
 * requests get 401, a signed-in page follows a CloneSet's in-place rollout to completion while its
 * pods keep their names, and a page opened on 1,000 more pods shows them all (its paint time is printed,
 * not asserted). A screenshot of the rollout is left in .artifacts/dashboard/.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import https from 'node:https';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { apiClientFromKubeconfig, type UpProcess } from '../../testing/process.js';
import { artifactPath, chromiumAvailability } from '../../testing/browser.js';
import { startDashboardUp, type DashboardUp } from './browser-kit.js';

const browserCheck = chromiumAvailability();

const cloneSet = (name: string, replicas: number, image: string) => `apiVersion: apps.kruise.io/v1alpha1
kind: CloneSet
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}
  updateStrategy: {type: InPlaceIfPossible}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: main, image: "${image}"}]}
`;

describe('dashboard in headless Chromium', { skip: browserCheck.available ? false : browserCheck.reason, timeout: 300_000 }, () => {
  let d: DashboardUp;
  let context: BrowserContext;
  let up: UpProcess;
  let kubectl: DashboardUp['kubectl'];
  const dashboardUrl = () => d.dashboardUrl;
  const apply = (yaml: string) => d.apply(yaml);
  const signIn = (page: Page) => d.signIn(page);

  before(async () => {
    d = await startDashboardUp((browserCheck as { executablePath: string }).executablePath);
    ({ context, up, kubectl } = d);
  });

  after(async () => {
    await d?.stop();
  });

  test('anonymous and wrong-token requests get 401', async () => {
    const get = (p: string, headers: Record<string, string> = {}) => new Promise<number>((resolve, reject) => {
      const req = https.get(`${up.url}${p}`, { ca: d.ca, headers }, (res) => { resolve(res.statusCode ?? 0); req.destroy(); }).on('error', (e) => (req.destroyed ? undefined : reject(e)));
    });
    for (const p of ['/dashboard/', '/dashboard/api/stream', '/dashboard/app.js']) assert.equal(await get(p), 401, p);
    assert.equal(await get('/dashboard/api/stream', { authorization: 'Bearer not-a-token' }), 401);
    // What the API server itself accepts on the request (here its bearer token) is a sign-in too.
    assert.equal(await get('/dashboard/api/stream', { authorization: `Bearer ${d.token}` }), 200);
    const page = await context.newPage();
    await page.goto(dashboardUrl());
    await page.fill('input[name=token]', 'not-a-token');
    await page.click('button[type=submit]');
    assert.equal((await page.textContent('#login-error'))?.trim(), 'the token is not valid for this cluster');
    await page.close();
  });

  test('an in-place rollout of a CloneSet moves to complete and keeps the pod names', async () => {
    const page = await context.newPage();
    await signIn(page);
    await apply(cloneSet('web', 3, 'nginx:1.25'));
    const row = 'tr[data-workload="CloneSet/default/web"]';
    await page.waitForSelector(`${row} [data-testid=progress]:text-is("complete")`, { timeout: 60_000 });
    assert.equal(await page.textContent(`${row} [data-testid=ready]`), '3/3');
    assert.equal(await page.$$eval('[data-action]', (els) => els.length), 0, 'no action controls without --dashboard-actions');
    assert.match((await page.textContent('[data-testid=user]'))!, /read-only/);
    await page.click(row);
    await page.waitForSelector('[data-timeline="CloneSet/default/web"]');
    const podNames = async () => (await page.$$eval('[data-pod-row]', (rows) => rows.map((r) => r.getAttribute('data-pod-row')!))).sort();
    const before = await podNames();
    assert.equal(before.length, 3);
    const firstRevision = (await page.textContent(`${row} .rev`))!.trim();

    const patched = await kubectl(['patch', 'clonesets.apps.kruise.io', 'web', '--type', 'merge', '-p', '{"spec":{"template":{"spec":{"containers":[{"name":"main","image":"nginx:1.26"}]}}}}']);
    assert.equal(patched.code, 0, patched.stderr);
    // The revision cell shows the new revision alone once current == update, and the bar says complete.
    await page.waitForFunction(([r, old]) => {
      const tr = document.querySelector(r!);
      const rev = tr?.querySelector('.rev')?.textContent?.trim();
      return rev && rev !== old && !rev.includes('→') && tr!.querySelector('[data-testid=progress]')?.textContent === 'complete';
    }, [row, firstRevision], { timeout: 60_000 });
    assert.equal(await page.textContent(`${row} [data-testid=updated]`), '3');
    assert.equal(await page.textContent(`${row} [data-testid=inplace]`), '3 / 0', 'all three updated in place, none recreated');
    assert.deepEqual(await podNames(), before, 'the pods keep their names');
    const cells = await page.$$eval('.pod.inplace[data-pod^="default/web-"]', (els) => els.length);
    assert.equal(cells, 3, 'the grid marks the three pods as updated in place');
    const points = await page.$$eval('[data-timeline] path.updated-line', (p) => p.length);
    assert.equal(points, 1);
    const shot = artifactPath('dashboard', 'rollout.png');
    await mkdir(path.dirname(shot), { recursive: true });
    await page.screenshot({ path: shot, fullPage: true });
    console.log(`dashboard screenshot: ${shot}`);
    await page.close();
  });

  test('a page opened on 1,000 pods shows them all', async () => {
    // Left to a scheduler that does not run, so no kubelet spends the test's time starting them.
    const api = await apiClientFromKubeconfig(path.join(d.dir, 'kubeconfig'));
    let next = 0;
    await Promise.all(Array.from({ length: 16 }, async () => {
      while (next < 1000) {
        const i = next++;
        const r = await api.request('POST', '/api/v1/namespaces/default/pods', {
          apiVersion: 'v1', kind: 'Pod', metadata: { name: `many-${i}`, labels: { app: 'many' } },
          spec: { schedulerName: 'parked', containers: [{ name: 'main', image: 'nginx:1.25' }] },
        });
        assert.equal(r.status, 201, r.text);
      }
    }));
    const page = await context.newPage();
    await signIn(page);
    await page.waitForFunction(() => (window as unknown as { dashboardRendered?: unknown }).dashboardRendered !== undefined, undefined, { timeout: 30_000 });
    const rendered = await page.evaluate(() => (window as unknown as { dashboardRendered: { snapshotToPaintMs: number; pods: number } }).dashboardRendered);
    const cells = await page.$$eval('[data-pod^="default/many-"]', (els) => els.length);
    assert.equal(cells, 1000);
    console.log(`dashboard: ${rendered.pods} pods painted ${rendered.snapshotToPaintMs.toFixed(0)} ms after the snapshot arrived`);
    await page.screenshot({ path: artifactPath('dashboard', 'thousand-pods.png'), fullPage: false });
    await page.close();
  });
});
