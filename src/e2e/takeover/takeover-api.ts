/**
 * The takeover test's view of the API: reads and patches of the objects under test, and writing the
 * state OpenKruise leaves (openkruise-state.ts) with the status subresource, as its manager and the
 * kubelet would have written it.
 */
import assert from 'node:assert/strict';
import { apiClientFromKubeconfig, type ApiClient } from '../../testing/process.js';
import { eventually } from '../../testing/workload-env.js';
import * as ok from './openkruise-state.js';

type Obj = Record<string, any>; // any: API JSON read field by field

const paths: Record<string, string> = {
  pods: `/api/v1/namespaces/${ok.ns}/pods`,
  services: `/api/v1/namespaces/${ok.ns}/services`,
  controllerrevisions: `/apis/apps/v1/namespaces/${ok.ns}/controllerrevisions`,
  clonesets: `/apis/apps.kruise.io/v1alpha1/namespaces/${ok.ns}/clonesets`,
  statefulsets: `/apis/apps.kruise.io/v1beta1/namespaces/${ok.ns}/statefulsets`,
  daemonsets: `/apis/apps.kruise.io/v1alpha1/namespaces/${ok.ns}/daemonsets`,
  sidecarsets: '/apis/apps.kruise.io/v1alpha1/sidecarsets',
};

export class TakeoverApi {
  private constructor(private readonly http: ApiClient) {}

  static async connect(kubeconfig: string): Promise<TakeoverApi> {
    return new TakeoverApi(await apiClientFromKubeconfig(kubeconfig));
  }

  private async call(method: string, url: string, body?: unknown, contentType = 'application/json'): Promise<Obj> {
    const r = await this.http.request(method, url, body, { 'content-type': contentType });
    assert.ok(r.status >= 200 && r.status < 300, `${method} ${url}: ${r.status} ${r.text}`);
    return r.body as Obj;
  }

  create(kind: string, obj: Obj): Promise<Obj> { return this.call('POST', paths[kind], obj); }
  get(kind: string, name: string): Promise<Obj> { return this.call('GET', `${paths[kind]}/${name}`); }
  async list(kind: string): Promise<Obj[]> { return (await this.call('GET', paths[kind])).items as Obj[]; }
  pods(): Promise<Obj[]> { return this.list('pods'); }
  crd(name: string): Promise<Obj> { return this.call('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${name}`); }

  /** Custom resources take merge patches (lists replaced whole, so callers send whole lists); pods strategic ones. */
  patch(kind: string, name: string, body: Obj): Promise<Obj> {
    const type = kind === 'pods' ? 'strategic-merge-patch' : 'merge-patch';
    return this.call('PATCH', `${paths[kind]}/${name}`, body, `application/${type}+json`);
  }

  setStatus(kind: string, name: string, status: Obj): Promise<Obj> {
    return this.call('PATCH', `${paths[kind]}/${name}/status`, { status }, 'application/merge-patch+json');
  }

  /**
   * Puts OpenKruise's CRD versions in place of ours: CloneSet, Advanced DaemonSet and SidecarSet
   * served and stored as v1alpha1 only, Advanced StatefulSet as v1alpha1 + v1beta1 (stored), both
   * without conversion webhooks. `kruise install` later brings back ours (docs/design/takeover.md §3).
   */
  async useOpenKruiseCrds(): Promise<void> {
    const base = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
    for (const plural of ['clonesets', 'daemonsets', 'sidecarsets', 'statefulsets']) {
      const name = `${plural}.apps.kruise.io`;
      const live = await this.call('GET', `${base}/${name}`);
      const versions = (live.spec.versions as Obj[]).filter((v) => plural === 'statefulsets' || v.name === 'v1alpha1')
        .map((v) => ({ ...v, storage: plural === 'statefulsets' ? v.name === 'v1beta1' : true }));
      const crd = { apiVersion: live.apiVersion, kind: live.kind, metadata: { name, labels: live.metadata.labels }, spec: { ...live.spec, versions, conversion: { strategy: 'None' } } };
      await this.call('DELETE', `${base}/${name}`);
      await eventually(`${name} deleted`, async () => (await this.http.request('GET', `${base}/${name}`)).status === 404, 30_000);
      await this.call('POST', base, crd);
      await eventually(`${name} established`, async () => (await this.call('GET', `${base}/${name}`)).status?.conditions?.some((c: Obj) => c.type === 'Established' && c.status === 'True'), 30_000);
    }
  }

  /**
   * Drops the webhook configurations `kruise install` wrote: OpenKruise's manager, which served them,
   * is gone, and the objects below are written as it wrote them, past its webhooks.
   */
  async dropWebhookConfigurations(): Promise<void> {
    for (const kind of ['mutating', 'validating']) {
      await this.call('DELETE', `/apis/admissionregistration.k8s.io/v1/${kind}webhookconfigurations/kruise-${kind}-webhook-configuration`);
    }
  }

  /** Creates the workloads, their revisions and pods, waits for the pods to run, then writes statuses. */
  async writeOpenKruiseState() {
    await this.call('POST', '/api/v1/namespaces', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: ok.ns } });
    await this.create('services', { apiVersion: 'v1', kind: 'Service', metadata: { name: 'db', namespace: ok.ns }, spec: { clusterIP: 'None', selector: { app: 'db' } } });
    await this.call('POST', paths.sidecarsets, ok.sidecarSet());
    const cs = await this.create('clonesets', ok.cloneSet());
    const sts = await this.create('statefulsets', ok.statefulSet());
    const ds = await this.create('daemonsets', ok.daemonSet());
    const cloneSet = ok.cloneSetState(cs);
    const statefulSet = ok.statefulSetState(sts);
    const daemonSet = ok.daemonSetState(ds);
    for (const r of [...cloneSet.revisions, statefulSet.revision, daemonSet.revision]) await this.create('controllerrevisions', r.object);
    // A real API server refuses pods until the namespace's `default` ServiceAccount exists.
    for (const p of [...cloneSet.pods, ...statefulSet.pods, ...daemonSet.pods]) await eventually(`pod ${p.metadata.name} created`, () => this.create('pods', p), 30_000);
    const running = await eventually('the pods run', async () => {
      const pods = await this.pods();
      return pods.length === 7 && pods.every((p) => p.status?.containerStatuses?.every((c: Obj) => c.ready)) && pods;
    }, 60_000);
    for (const p of running) {
      await this.call('PATCH', `${paths.pods}/${p.metadata.name}/status`,
        { status: { conditions: [{ type: 'InPlaceUpdateReady', status: 'True', lastTransitionTime: '2024-05-01T10:00:00Z' }] } }, 'application/strategic-merge-patch+json');
    }
    await eventually('the pods are Ready', async () => {
      const pods = await this.pods();
      return pods.every((p) => p.status?.conditions?.some((c: Obj) => c.type === 'Ready' && c.status === 'True'));
    }, 30_000);
    await this.setStatus('clonesets', 'web', cloneSet.status);
    await this.setStatus('statefulsets', 'db', statefulSet.status);
    await this.setStatus('daemonsets', 'agent', daemonSet.status);
    await this.call('PATCH', `${paths.sidecarsets}/log/status`, { status: { observedGeneration: 1, matchedPods: 2, updatedPods: 2, readyPods: 2, updatedReadyPods: 2, latestRevision: ok.sidecar.revision } }, 'application/merge-patch+json');
    return { cloneSet, statefulSet, daemonSet };
  }
}
