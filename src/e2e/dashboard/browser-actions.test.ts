/**
 * The dashboard in headless Chromium against `kruise up --dashboard-actions` (docs/design/dashboard.md
 * §10-§12): Pause/Resume and the partition field change a CloneSet's spec (read back with kubectl);
 * a Deployment's rollout shows its ReplicaSet revisions and the pods it replaced; a PUB and an
 * AdvancedCronJob show their status from the real controllers; a browser presenting a kubeconfig's
 * client certificate is signed in as that certificate's user without the form.
 */
import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'yaml';
import type { Page } from 'playwright-core';
import { chromiumAvailability } from '../../testing/browser.js';
import { issueClientCert } from '../../apiserver/auth/pki.js';
import { buildKubeconfig } from '../../apiserver/auth/kubeconfig.js';
import { startDashboardUp, type DashboardUp } from './browser-kit.js';

const browserCheck = chromiumAvailability();

const workload = (kind: string, apiVersion: string, name: string, replicas: number, image: string, extra = '') => `apiVersion: ${apiVersion}
kind: ${kind}
metadata: {name: ${name}, namespace: default}
spec:
  replicas: ${replicas}
  selector: {matchLabels: {app: ${name}}}${extra}
  template:
    metadata: {labels: {app: ${name}}}
    spec: {containers: [{name: main, image: "${image}"}]}
`;

describe('dashboard actions, Deployments, other kinds and client certificates in Chromium', { skip: browserCheck.available ? false : browserCheck.reason, timeout: 300_000 }, () => {
  let d: DashboardUp;
  let page: Page;
  const jsonpath = async (resource: string, name: string, path: string) => {
    const r = await d.kubectl(['get', resource, name, '-o', `jsonpath={${path}}`]);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const textIs = (selector: string, text: string) => page.waitForFunction(([s, t]) => document.querySelector(s!)?.textContent?.trim() === t, [selector, text], { timeout: 60_000 });

  before(async () => {
    d = await startDashboardUp((browserCheck as { executablePath: string }).executablePath, ['--dashboard-actions']);
    page = await d.context.newPage();
    await d.signIn(page);
  });

  after(async () => {
    await d?.stop();
  });

  test('Pause, Resume and the partition field change the CloneSet from the page', async () => {
    await d.apply(workload('CloneSet', 'apps.kruise.io/v1alpha1', 'paced', 2, 'nginx:1.25'));
    const row = 'tr[data-workload="CloneSet/default/paced"]';
    await textIs(`${row} [data-testid=progress]`, 'complete');
    const cs = 'clonesets.v1beta1.apps.kruise.io';
    await page.click(`${row} button[data-action=pause]`);
    await textIs(`${row} button[data-action=pause]`, 'Resume');
    assert.equal(await jsonpath(cs, 'paced', '.spec.updateStrategy.rollingUpdate.paused'), 'true');
    await page.click(`${row} button[data-action=pause]`);
    await textIs(`${row} button[data-action=pause]`, 'Pause');
    assert.equal(await jsonpath(cs, 'paced', '.spec.updateStrategy.rollingUpdate.paused'), 'false');
    await page.fill(`${row} input[data-action=partition]`, '1');
    await page.click(`${row} button[data-action=set-partition]`);
    await textIs(`${row} [data-testid=partition]`, '1');
    assert.equal(await jsonpath(cs, 'paced', '.spec.updateStrategy.rollingUpdate.partition'), '1');
  });

  test('a Deployment shows its ReplicaSet revision and the pods its rollout replaced', async () => {
    await d.apply(workload('Deployment', 'apps/v1', 'api', 2, 'nginx:1.25'));
    const row = 'tr[data-workload="Deployment/default/api"]';
    await textIs(`${row} [data-testid=progress]`, 'complete');
    assert.equal(await page.textContent(`${row} [data-testid=revision]`), '1');
    assert.equal(await page.textContent(`${row} [data-testid=inplace]`), '0 / 0', 'nothing replaced at revision 1');
    const patched = await d.kubectl(['set', 'image', 'deployment/api', 'main=nginx:1.26']);
    assert.equal(patched.code, 0, patched.stderr);
    // Revision 2 alone once the old ReplicaSet has no pods left, and both pods replaced, none in place.
    await page.waitForFunction((r) => {
      const tr = document.querySelector(r);
      return tr?.querySelector('[data-testid=revision]')?.textContent === '2' && tr.querySelector('[data-testid=progress]')?.textContent === 'complete'
        && tr.querySelector('[data-testid=inplace]')?.textContent === '0 / 2';
    }, row, { timeout: 60_000 });
    assert.equal(await jsonpath('deployment', 'api', '.metadata.annotations.deployment\\.kubernetes\\.io/revision'), '2');
  });

  test('a PodUnavailableBudget and an AdvancedCronJob show their status', async () => {
    await d.apply(`apiVersion: policy.kruise.io/v1alpha1
kind: PodUnavailableBudget
metadata: {name: paced-budget, namespace: default}
spec: {selector: {matchLabels: {app: paced}}, maxUnavailable: 1}
---
apiVersion: apps.kruise.io/v1alpha1
kind: AdvancedCronJob
metadata: {name: nightly, namespace: default}
spec:
  schedule: "0 3 * * *"
  template:
    jobTemplate:
      spec: {template: {spec: {restartPolicy: Never, containers: [{name: c, image: busybox}]}}}
`);
    const pub = '[data-other="PodUnavailableBudget/default/paced-budget"]';
    await textIs(`${pub} [data-field=available] b`, '2/1');
    assert.equal(await page.textContent(`${pub} [data-field="unavailable allowed"] b`), '1');
    const acj = '[data-other="AdvancedCronJob/default/nightly"]';
    await textIs(`${acj} [data-field=schedule] b`, '0 3 * * *');
    assert.equal(await page.textContent(`${acj} [data-field="last schedule"] b`), 'never');
  });

  test('a browser presenting the kubeconfig\'s client certificate is signed in as its user', async () => {
    // A kubeconfig user with a client certificate the cluster's CA signed (as `kubectl config set-credentials` would hold).
    const read = (f: string) => readFile(path.join(d.dir, 'pki', f), 'utf8');
    const alice = await issueClientCert({ certPem: await read('ca.crt'), keyPem: await read('ca.key') }, 'alice', ['system:masters']);
    const kubeconfig = parse(buildKubeconfig({ server: d.up.url, caPem: d.ca.toString(), user: 'alice', clientCert: alice, clusterName: 'kruise' })) as { users: { user: Record<string, string> }[] };
    const user = kubeconfig.users[0]!.user;
    const context = await d.browser.newContext({
      ignoreHTTPSErrors: true,
      clientCertificates: [{ origin: d.up.url, cert: Buffer.from(user['client-certificate-data']!, 'base64'), key: Buffer.from(user['client-key-data']!, 'base64') }],
    });
    const certPage = await context.newPage();
    const response = await certPage.goto(d.dashboardUrl);
    assert.equal(response?.status(), 200, 'no sign-in form: the API server authenticated the certificate');
    await certPage.waitForSelector('[data-testid=connection]:text("live")');
    assert.match((await certPage.textContent('[data-testid=user]'))!, /^alice/);
    await context.close();
    const anonymous = await d.browser.newContext({ ignoreHTTPSErrors: true });
    assert.equal((await (await anonymous.newPage()).goto(d.dashboardUrl))?.status(), 401, 'without the certificate: the form');
    await anonymous.close();
  });
});
