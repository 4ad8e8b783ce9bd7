/**
 * Differential suite: the same API-level cases against the embedded server and a real
 * kube-apiserver v1.32 + etcd + kube-controller-manager, comparing normalised observations.
 * Without the real binaries the comparison is skipped, but the cases still run on the embedded
 * server. DIFF_ONLY=<regex> selects cases; DIFF_DUMP=<file> writes both sides' observations.
 *
 * kube-controller-manager runs only the controllers the embedded plane also has (namespace
 * deletion, garbage collection, ClusterRole aggregation) plus ServiceAccounts for pod admission, so workload controllers
 * do not write Deployment status behind the cases' backs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { startTestControlPlane, type TestControlPlane } from '../../testing/control-plane.js';
import { realControlPlaneAvailable, startRealControlPlane, type RealControlPlane } from '../../testing/real-control-plane.js';
import { createDiffApi, type DiffApi } from './api.js';
import { cases as allCases, unmatchedKnownDifferences } from './cases.js';
import { runCases, type CaseResult } from './runner.js';
import { installCrd, widgetCrd } from './widget-crd.js';

const kcmControllers = 'namespace-controller,garbage-collector-controller,serviceaccount-controller,root-ca-certificate-publisher-controller,clusterrole-aggregation-controller';
const only = process.env.DIFF_ONLY ? new RegExp(process.env.DIFF_ONLY) : undefined;
const cases = allCases.filter((c) => !only || only.test(c.name));
const availability = realControlPlaneAvailable();

async function startReal(): Promise<RealControlPlane> {
  process.env.K8S_REAL_KCM_ARGS = `--controllers=${kcmControllers} ${process.env.K8S_REAL_KCM_ARGS ?? ''}`.trim();
  // as kubeadm runs it, and as the embedded server's RBAC mode is (authorization.md §14, §17)
  process.env.K8S_REAL_AUTHZ_MODE = 'Node,RBAC';
  process.env.K8S_REAL_APISERVER_ARGS = `--enable-admission-plugins=NodeRestriction ${process.env.K8S_REAL_APISERVER_ARGS ?? ''}`.trim();
  return startRealControlPlane();
}

function explain(name: string, r: CaseResult | undefined): string {
  return `${name}: ${r?.error ?? 'no result'}`;
}

describe('differential: embedded API server vs kube-apiserver v1.32', { timeout: 150_000 }, () => {
  let embedded: TestControlPlane;
  let real: RealControlPlane | undefined;
  const apis: DiffApi[] = [];
  let embeddedRun: Promise<Map<string, CaseResult>>;
  let realRun: Promise<Map<string, CaseResult>> | undefined;

  before(async () => {
    // Both start together; each is kept as soon as it is up so that after() stops it even if the other failed.
    const starting = [startTestControlPlane({ serviceAccountAdmission: true }).then((e) => { embedded = e; }), availability.available ? startReal().then((r) => { real = r; }) : undefined];
    const failed = (await Promise.allSettled(starting)).find((s): s is PromiseRejectedResult => s.status === 'rejected');
    if (failed) throw failed.reason;
    const embeddedApi = createDiffApi({ url: embedded.plane.url, caPem: embedded.plane.pki.ca.certPem, token: embedded.plane.pki.adminToken });
    apis.push(embeddedApi);
    const realApi = real ? createDiffApi({ url: real.url, caPem: real.caPem, token: real.token }) : undefined;
    if (realApi) apis.push(realApi);
    await Promise.all(apis.map((api) => installCrd(api, widgetCrd())));
    embeddedRun = runCases(embeddedApi, cases, { side: 'embedded', serviceAccounts: false, concurrency: 8 });
    if (realApi) realRun = runCases(realApi, cases, { side: 'real', serviceAccounts: true, concurrency: 8 });
    // Both runs settle even when cases fail (errors are results), so awaiting them later is safe.
  });

  after(async () => {
    await Promise.allSettled([embeddedRun, realRun]);
    for (const api of apis) api.close();
    await Promise.all([embedded?.stop(), real?.stop()]);
  });

  test('known differences all name an existing case', () => {
    assert.deepEqual(unmatchedKnownDifferences(), []);
  });

  test('every case runs on the embedded server', async () => {
    const results = await embeddedRun;
    const failed = cases.filter((c) => !results.get(c.name)?.observation);
    assert.deepEqual(failed.map((c) => explain(c.name, results.get(c.name))), []);
  });

  test('every case agrees with the real server', async (t) => {
    if (!realRun) return t.skip(availability.reason);
    const [mine, theirs] = await Promise.all([embeddedRun, realRun]);
    if (process.env.DIFF_DUMP) {
      const dump = Object.fromEntries(cases.map((c) => [c.name, { embedded: mine.get(c.name), real: theirs.get(c.name), knownDifference: c.knownDifference }]));
      await writeFile(process.env.DIFF_DUMP, JSON.stringify(dump, null, 2));
    }
    for (const c of cases) {
      await t.test(c.name, { todo: c.knownDifference }, () => {
        const ours = mine.get(c.name);
        const upstream = theirs.get(c.name);
        assert.ok(upstream?.observation, `the case failed on the real server: ${explain(c.name, upstream)}`);
        assert.ok(ours?.observation, `the case failed on the embedded server: ${explain(c.name, ours)}`);
        assert.deepStrictEqual(ours.observation, upstream.observation);
      });
    }
  });
});
