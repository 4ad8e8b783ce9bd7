/**
 * C14 (docs/design/cloneset.md §13, §10): PVCs from volumeClaimTemplates. One claim per pod named
 * `data-<cs>-<id>`, labelled with the instance id, owned by the CloneSet and mounted by the pod;
 * without reuse an externally deleted pod's replacement gets a new id and the old claim goes; with
 * reuse it gets the same name and the same claim; scale-in deletes the claim; deleting the CloneSet
 * removes pods and claims. Changing only the claim templates makes no new revision.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets } from '../../api/kruise/resource-types.js';
import type { CloneSet } from '../../api/kruise/workloads/cloneset.js';
import type { KObject } from '../../api/meta.js';
import { ControllerRevisions, PersistentVolumeClaims, Pods } from '../../api/resource-type.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import type { Pod } from '../../api/core/index.js';

const ns = 'default';
const ID = 'apps.kruise.io/cloneset-instance-id';
let w: WorkloadEnv;

before(async () => {
  w = await startWorkloadEnv({ nodes: 2, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
});
after(() => w.stop());

const claimTemplate = (labels: Record<string, string> = {}) =>
  ({ metadata: { name: 'data', labels }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } });
const manifest = {
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet', metadata: { name: 'c14', namespace: ns },
  spec: {
    replicas: 2, selector: { matchLabels: { app: 'c14' } }, volumeClaimTemplates: [claimTemplate()],
    template: { metadata: { labels: { app: 'c14' } }, spec: { containers: [{ name: 'web', image: 'nginx:1.25-alpine' }] } },
  },
};
const get = () => w.client.get<CloneSet>(CloneSets, ns, 'c14');
const livePods = async () => (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: 'app=c14' })).items.filter((p) => !p.metadata.deletionTimestamp);
const claims = async () => (await w.client.list<KObject>(PersistentVolumeClaims, { namespace: ns, labelSelector: 'app=c14' })).items
  .filter((c) => !c.metadata.deletionTimestamp);
const podNames = async () => (await livePods()).map((p) => p.metadata.name!).sort();
const claimNames = async () => (await claims()).map((c) => c.metadata.name!).sort();
const isReady = (p: Pod) => p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** `replicas` ready pods and exactly their claims. */
async function steady(replicas: number): Promise<string[]> {
  return eventually(`${replicas} pods with their claims`, async () => {
    const cs = await get();
    const pods = await livePods();
    const names = pods.map((p) => p.metadata.name!).sort();
    return cs.status?.availableReplicas === replicas && pods.length === replicas && pods.every(isReady)
      && (await claimNames()).join() === names.map((n) => `data-${n}`).join() ? names : undefined;
  }, 30_000);
}

// --wait=false: kubectl's wait for the deletion sometimes hangs when the replacement takes the same
// name at once (issue 22's note, under investigation); this test is about the claims, checked below.
async function kubectlDeletePod(name: string): Promise<void> {
  const r = await w.env.kubectl(['delete', 'pod', name, '-n', ns, '--wait=false']);
  assert.equal(r.code, 0, r.stderr);
}

describe('C14: PVCs of a CloneSet', () => {
  test('one claim per pod: name, instance-id label, CloneSet owner, mounted as volume data', async () => {
    const cs = await w.client.create<CloneSet>(CloneSets, manifest);
    const names = await steady(2);
    for (const p of await livePods()) {
      const id = p.metadata.labels![ID]!;
      assert.equal(p.metadata.name, `c14-${id}`);
      const claim = await w.client.get<KObject>(PersistentVolumeClaims, ns, `data-c14-${id}`);
      assert.equal(claim.metadata.labels?.[ID], id);
      assert.equal(claim.metadata.labels?.app, 'c14');
      assert.deepEqual(claim.metadata.ownerReferences?.map((r) => [r.kind, r.name, r.uid, r.controller]), [['CloneSet', 'c14', cs.metadata.uid, true]]);
      const volumes = p.spec.volumes as { name: string; persistentVolumeClaim?: { claimName: string } }[];
      assert.deepEqual(volumes.find((v) => v.name === 'data')?.persistentVolumeClaim, { claimName: `data-c14-${id}` });
    }
    assert.equal(names.length, 2);
  });

  test('without reuse, a deleted pod is replaced under a new name and its claim goes', async () => {
    const before = await podNames();
    const victim = before[0]!;
    await kubectlDeletePod(victim);
    const after = await steady(2);
    assert.ok(!after.includes(victim), `new name for the replacement (${after.join()})`);
    assert.ok(after.includes(before[1]!));
    assert.ok(!(await claimNames()).includes(`data-${victim}`), 'the old claim is gone');
  });

  test('with enablePVCReuse, the replacement keeps the name and the very same claim', async () => {
    await w.client.patch(CloneSets, ns, 'c14', 'merge', { spec: { scaleStrategy: { enablePVCReuse: true } } });
    const before = await podNames();
    const victim = before[0]!;
    const claimUid = (await w.client.get<KObject>(PersistentVolumeClaims, ns, `data-${victim}`)).metadata.uid;
    const podUid = (await w.client.get<Pod>(Pods, ns, victim)).metadata.uid;
    await kubectlDeletePod(victim);
    const replacement = await eventually('replacement under the same name', async () => {
      const p = (await livePods()).find((x) => x.metadata.name === victim);
      return p && p.metadata.uid !== podUid ? p : undefined;
    }, 30_000);
    assert.deepEqual(await steady(2), before);
    assert.equal((await w.client.get<KObject>(PersistentVolumeClaims, ns, `data-${victim}`)).metadata.uid, claimUid, 'same claim');
    assert.equal(replacement.metadata.labels?.[ID], victim.slice('c14-'.length));
  });

  test('changing only the claim templates makes no new revision', async () => {
    const revisionBefore = (await get()).status!.updateRevision!;
    const countBefore = (await w.client.list<KObject>(ControllerRevisions, { namespace: ns })).items.filter((r) => r.metadata.name!.startsWith('c14-')).length;
    const hashOf = async () => (await w.client.get<KObject>(ControllerRevisions, ns, revisionBefore)).metadata.annotations?.['kruise.io/cloneset-volumeclaimtemplate-hash'];
    const hashBefore = await hashOf();
    assert.ok(hashBefore, 'the revision records the claim templates hash');
    await w.client.patch(CloneSets, ns, 'c14', 'merge', { spec: { volumeClaimTemplates: [claimTemplate({ tier: 'db' })] } });
    await eventually('hash follows the templates', async () => (await hashOf()) !== hashBefore, 20_000);
    const cs = await get();
    assert.equal(cs.status?.updateRevision, revisionBefore);
    assert.equal((await w.client.list<KObject>(ControllerRevisions, { namespace: ns })).items.filter((r) => r.metadata.name!.startsWith('c14-')).length, countBefore);
  });

  test('scale-in deletes the removed pod\'s claim; deleting the CloneSet removes pods and claims', async () => {
    const before = await podNames();
    await w.client.patch(CloneSets, ns, 'c14', 'merge', { spec: { replicas: 1 } });
    const [kept] = await steady(1);
    const removed = before.find((n) => n !== kept)!;
    assert.ok(!(await claimNames()).includes(`data-${removed}`));
    const r = await w.env.kubectl(['delete', 'clone', 'c14', '-n', ns]);
    assert.equal(r.code, 0, r.stderr);
    await eventually('pods and claims gone', async () => {
      const pods = (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: 'app=c14' })).items;
      const pvcs = (await w.client.list<KObject>(PersistentVolumeClaims, { namespace: ns, labelSelector: 'app=c14' })).items;
      return pods.length === 0 && pvcs.length === 0;
    }, 30_000);
  });
});
