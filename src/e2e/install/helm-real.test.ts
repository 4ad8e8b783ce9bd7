/**
 * `helm install` of charts/kruise into the real kube-apiserver v1.32 (which enforces RBAC), the manager
 * and daemons then running as the chart's pods would: only their ServiceAccount tokens (TokenRequest)
 * and the in-pod environment, no admin credentials (docs/design/install.md §4-§6). CloneSet, Advanced
 * StatefulSet and SidecarSet work; a removed RBAC rule shows as a 403 in the manager's log and
 * the case passes once the release's rule is back; two replicas share one certificate and one leader; `helm uninstall`
 * is refused by the pre-delete hook while a CloneSet exists and removes everything once none does.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { X509Certificate } from 'node:crypto';
import tls from 'node:tls';
import path from 'node:path';
import { helm, helmAvailable } from '../../testing/helm.js';
import { runHookPods } from '../../testing/hook-pods.js';
import { podIdentity } from '../../testing/pod-identity.js';
import { startManagerProcess, stopChild, type ManagerProcess } from '../../testing/process.js';
import { realControlPlaneAvailable } from '../../testing/real-control-plane.js';
import { startRealKruise, type RealKruise } from '../../testing/real-kruise.js';
import { eventually } from '../../testing/workload-env.js';

type Obj = Record<string, any>; // any: kubectl's JSON output, read field by field

const real = realControlPlaneAvailable();
const helmState = helmAvailable();
const skip = !real.available ? real.reason : !helmState.available ? helmState.reason : false;
const forbidden = (out: string) => out.split('\n').filter((l) => /forbidden|"code":403/i.test(l));

describe('helm install on the real kube-apiserver, manager and daemons with only their ServiceAccount tokens', { skip, timeout: 600_000 }, () => {
  let k: RealKruise;
  let manager: ManagerProcess;
  const helmHome = () => path.join(k.dir, 'helm');
  const json = (args: string[]) => k.json(args);
  const run = async (args: string[]) => {
    const r = await k.kubectl(args);
    assert.equal(r.code, 0, r.stderr);
    return r.stdout;
  };
  const cloneSet = (name: string, image: string) => ({
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name, namespace: 'default' },
    spec: { replicas: 2, selector: { matchLabels: { app: name } }, updateStrategy: { type: 'InPlaceIfPossible' },
      template: { metadata: { labels: { app: name } }, spec: { containers: [{ name: 'web', image }] } } },
  });
  const cloneSetReady = (name: string, image: string) => eventually(`${name} ready on ${image}`, async () => {
    const cs = await json(['get', 'clonesets.apps.kruise.io', name]);
    const ready = (await k.pods(name)).filter((p) => p.spec.containers[0].image === image && p.status?.containerStatuses?.[0]?.ready);
    return cs.status?.updatedReadyReplicas === 2 && ready.length === 2 ? ready : undefined;
  }, 90_000);

  before(async () => {
    k = await startRealKruise({ name: 'kruise-helm-real', install: 'helm', daemons: true, nodes: { count: 2, prefix: 'h-' } });
    manager = k.manager;
  });
  after(async () => {
    if (manager && manager !== k?.manager) await stopChild(manager.child);
    await k?.stop();
  });

  test('the release is deployed; install-to-ready is measured', async (t) => {
    const status = await helm(['status', 'kruise', '--kubeconfig', k.real.kubeconfig, '-o', 'json'], helmHome());
    assert.equal(status.code, 0, status.stderr);
    assert.equal(JSON.parse(status.stdout).info.status, 'deployed');
    const secrets = await json(['get', 'secrets', '-n', 'default', '-l', 'owner=helm,name=kruise']);
    assert.deepEqual(secrets.items.map((s: Obj) => s.metadata.name), ['sh.helm.release.v1.kruise.v1']);
    const cert = await json(['get', 'secret', '-n', 'kruise-system', 'kruise-webhook-certs']);
    assert.ok(cert.data['ca-cert.pem'] && cert.data['tls.crt'], 'the manager filled the chart\'s empty Secret');
    const mutating = await json(['get', 'mutatingwebhookconfiguration', 'kruise-mutating-webhook-configuration']);
    assert.equal(mutating.webhooks[0].clientConfig.caBundle, cert.data['ca-cert.pem'], 'the manager completed the configuration');
    t.diagnostic(`install-to-ready: ${k.installToReadyMs} ms (helm install to the manager's ready line)`);
  });

  test('CloneSet: scaled up and rolled in place', async () => {
    await k.apply(cloneSet('hc', 'nginx:1.25-alpine'));
    const first = await cloneSetReady('hc', 'nginx:1.25-alpine');
    await run(['patch', 'clone', 'hc', '--type', 'merge', '-p', JSON.stringify({ spec: { template: { spec: { containers: [{ name: 'web', image: 'nginx:1.26-alpine' }] } } } })]);
    const rolled = await cloneSetReady('hc', 'nginx:1.26-alpine');
    assert.deepEqual(rolled.map((p) => p.metadata.uid).sort(), first.map((p) => p.metadata.uid).sort(), 'same pods, updated in place');
  });

  test('Advanced StatefulSet: ordered pods ready', async () => {
    await k.apply({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'StatefulSet', metadata: { name: 'hs', namespace: 'default' },
      spec: { replicas: 2, serviceName: 'hs', selector: { matchLabels: { app: 'hs' } },
        template: { metadata: { labels: { app: 'hs' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } } },
    });
    const sts = await eventually('hs ready', async () => {
      const s = await json(['get', 'statefulsets.apps.kruise.io', 'hs']);
      return s.status?.readyReplicas === 2 ? s : undefined;
    }, 90_000);
    assert.equal(sts.status.replicas, 2);
    assert.deepEqual((await k.pods('hs')).map((p) => p.metadata.name).sort(), ['hs-0', 'hs-1']);
  });

  test('SidecarSet: a new pod gets the sidecar injected', async () => {
    await k.apply({
      apiVersion: 'apps.kruise.io/v1beta1', kind: 'SidecarSet', metadata: { name: 'agent' },
      spec: { selector: { matchLabels: { app: 'hsc' } }, containers: [{ name: 'agent', image: 'busybox:1.35', command: ['sleep', '3600'] }] },
    });
    await k.apply({ apiVersion: 'v1', kind: 'Pod', metadata: { name: 'hsc', namespace: 'default', labels: { app: 'hsc' } }, spec: { containers: [{ name: 'main', image: 'nginx:1.25' }] } });
    const pod = await json(['get', 'pod', 'hsc']);
    assert.deepEqual(pod.spec.containers.map((c: Obj) => c.name), ['agent', 'main']);
    assert.equal(pod.metadata.annotations['kruise.io/sidecarset-injected-list'], 'agent');
    await eventually('agent counts the pod', async () => ((await json(['get', 'sidecarset', 'agent'])).status?.matchedPods === 1 ? true : undefined), 60_000);
  });

  test('neither the manager nor a daemon was refused anything', () => {
    for (const [who, out] of [['manager', manager.output()], ...k.daemonOutputs.map((o, i) => [`daemon ${i}`, o()])] as const) {
      assert.deepEqual(forbidden(out).slice(0, 5), [], `${who} was refused something`);
    }
  });

  test('a removed RBAC rule shows as a 403 in the manager\'s log; with the release\'s rule back the case passes', async () => {
    const role = await json(['get', 'clusterrole', 'kruise-manager-role']);
    const i = role.rules.findIndex((r: Obj) => r.apiGroups.includes('apps') && r.resources.includes('controllerrevisions'));
    const rule = role.rules[i];
    const without = { ...rule, resources: rule.resources.filter((r: string) => r !== 'controllerrevisions') };
    await run(['patch', 'clusterrole', 'kruise-manager-role', '--type', 'json', '-p', JSON.stringify([{ op: 'replace', path: `/rules/${i}`, value: without }])]);
    await k.apply(cloneSet('denied', 'nginx:1.25-alpine'));
    const refused = await eventually('a 403 on controllerrevisions', async () => forbidden(manager.output()).find((l) => /controllerrevisions/.test(l)), 60_000);
    assert.match(refused, /system:serviceaccount:kruise-system:kruise-manager/);
    assert.equal((await json(['get', 'clonesets.apps.kruise.io', 'denied'])).status?.updatedReadyReplicas ?? 0, 0);
    // The release's own ClusterRole back (helm upgrade would also try to put the chart's Service form back
    // into configurations this loopback manager keeps in URL form, which the API server rejects).
    const manifest = await helm(['get', 'manifest', 'kruise', '--kubeconfig', k.real.kubeconfig], helmHome());
    const chartRole = manifest.stdout.split(/^---$/m).find((d) => /kind: ClusterRole\n/.test(d) && /name: kruise-manager-role\n/.test(d));
    assert.ok(chartRole, manifest.stderr);
    const replaced = await k.kubectl(['replace', '-f', '-'], { input: chartRole });
    assert.equal(replaced.code, 0, replaced.stderr);
    assert.ok((await json(['get', 'clusterrole', 'kruise-manager-role'])).rules[i].resources.includes('controllerrevisions'));
    await cloneSetReady('denied', 'nginx:1.25-alpine');
  });

  test('two replicas: both ready, one certificate from the Secret served by both, one leader', async () => {
    await stopChild(manager.child);
    const replicas: ManagerProcess[] = [];
    try {
      for (const n of [1, 2]) {
        const asPod = await podIdentity(k.kubectl, k.real.kubeconfig, 'kruise-manager', 'kruise-system', path.join(k.dir, `replica-${n}`));
        // In-cluster form: the Service, not a URL; the certificate in the chart's Secret.
        Object.assign(asPod.env, { WEBHOOK_HOST: '', WEBHOOK_CERT_WRITER: 'secret', WEBHOOK_CERT_DIR: path.join(k.dir, `replica-${n}`, 'certs') });
        replicas.push(await startManagerProcess(undefined, path.join(k.dir, `replica-${n}`, 'certs'), 60_000, [], asPod));
      }
      const secret = await json(['get', 'secret', '-n', 'kruise-system', 'kruise-webhook-certs']);
      const stored = new X509Certificate(Buffer.from(secret.data['cert.pem'], 'base64')).fingerprint256;
      const healthOf = (r: ManagerProcess) => JSON.parse(/health on (\{[^}]*\})/.exec(r.output())![1]!) as { host: string; port: number };
      for (const r of replicas) {
        const health = healthOf(r);
        assert.equal((await fetch(`http://${health.host}:${health.port}/readyz`)).status, 200);
        const served = await new Promise<string>((resolve, reject) => {
          const s = tls.connect({ host: '127.0.0.1', port: r.webhookPort, rejectUnauthorized: false }, () => { resolve(new X509Certificate(s.getPeerCertificate().raw).fingerprint256); s.end(); });
          s.on('error', reject);
        });
        assert.equal(served, stored, 'the replica serves the Secret\'s certificate');
      }
      // The stopped manager's lease runs out first (15 s) unless it released it.
      const leaders = await eventually('one replica leads', async () => {
        const flags = await Promise.all(replicas.map(async (r) => {
          const metrics = await (await fetch(`http://${healthOf(r).host}:${healthOf(r).port}/metrics`)).text();
          return Number(/^leader_election_master_status\{name="kruise-manager"\} (\d)/m.exec(metrics)?.[1] ?? 0);
        }));
        return flags.includes(1) ? flags : undefined;
      }, 60_000);
      assert.deepEqual(leaders.sort(), [0, 1], 'exactly one leader');
      const lease = await json(['get', 'lease', '-n', 'kruise-system', 'kruise-manager']);
      assert.ok(lease.spec.holderIdentity);
    } finally {
      for (const r of replicas) await stopChild(r.child);
      // Back to the loopback manager the rest of the suite talks to (it puts the URL form back).
      const asPod = await podIdentity(k.kubectl, k.real.kubeconfig, 'kruise-manager', 'kruise-system', path.join(k.dir, 'again'));
      asPod.env.WEBHOOK_CERT_WRITER = 'secret';
      manager = await startManagerProcess(undefined, path.join(k.dir, 'again', 'certs'), 60_000, [], asPod);
    }
  });

  test('helm uninstall: the pre-delete hook refuses while a CloneSet exists, then everything goes', async () => {
    k.scheduler.kill('SIGTERM'); // the hook pod stays unscheduled; hook-pods.ts runs it for real
    const hooks = runHookPods(k.kubectl, k.real.kubeconfig, 'kruise-system', 'control-plane=uninstall-check', path.join(k.dir, 'hooks'));
    try {
      const refused = await helm(['uninstall', 'kruise', '--kubeconfig', k.real.kubeconfig, '--timeout', '2m'], helmHome());
      assert.notEqual(refused.code, 0, refused.stdout);
      assert.match(refused.stderr, /job kruise-uninstall-check failed: BackoffLimitExceeded/);
      assert.match(hooks.runs[0]?.output ?? '', /refusing to uninstall: \d+ Kruise workload\(s\) still exist: CloneSet default\/(denied|hc)/);
      assert.ok((await json(['get', 'crd', 'clonesets.apps.kruise.io'])).metadata.uid, 'nothing was removed');
      await run(['delete', 'clonesets.apps.kruise.io,statefulsets.apps.kruise.io', '--all', '--wait=true']);
      const removed = await helm(['uninstall', 'kruise', '--kubeconfig', k.real.kubeconfig, '--timeout', '2m'], helmHome());
      assert.equal(removed.code, 0, removed.stderr);
      assert.equal(hooks.runs.at(-1)!.code, 0, hooks.runs.at(-1)!.output);
    } finally {
      await hooks.stop();
    }
    // a CRD goes once kube-apiserver has removed its instances, a moment after helm returns
    for (const what of ['crd/clonesets.apps.kruise.io', 'clusterrole/kruise-manager-role', 'mutatingwebhookconfiguration/kruise-mutating-webhook-configuration', 'clusterrole/kruise-uninstall-check']) {
      await eventually(`${what} is gone`, async () => /NotFound/.test((await k.kubectl(['get', what])).stderr) || undefined, 30_000);
    }
    const ns = await k.kubectl(['get', 'deployment', '-n', 'kruise-system', 'kruise-controller-manager']);
    assert.match(ns.stderr, /NotFound/);
    assert.equal((await json(['get', 'secrets', '-n', 'default', '-l', 'owner=helm,name=kruise'])).items.length, 0, 'the release is gone');
  });
});
