/**
 * `kruise sidecarset explain POD` against the embedded cluster (docs/design/sidecarset.md §10): the
 * command as a user runs it, with one row per SidecarSet saying whether it matches, whether it was
 * injected and why.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Namespaces } from '../../api/resource-type.js';
import type { WorkloadEnv } from '../../testing/workload-env.js';
import { appPod, createPod, eventually, getSet, logAgent, SidecarSets, startSidecarEnv } from './fixtures.js';

const run = promisify(execFile);

describe('kruise sidecarset explain', () => {
  let w: WorkloadEnv;
  before(async () => { w = await startSidecarEnv({ nodes: 1 }); });
  after(() => w.stop());

  test('reports selector, namespace, paused, canary shadowing, late SidecarSets and outdated versions', async () => {
    await w.client.create(Namespaces, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'shop' } });
    await w.client.create(SidecarSets, logAgent('log-agent'));
    await w.client.create(SidecarSets, logAgent('other-app', 'db', {}, { name: 'a2' }));
    await w.client.create(SidecarSets, logAgent('team-only', 'web', { namespaceSelector: { matchLabels: { team: 'a' } } }, { name: 'a3' }));
    await w.client.create(SidecarSets, logAgent('paused', 'web', { injectionStrategy: { paused: true } }, { name: 'a4' }));
    await w.client.create(SidecarSets, logAgent('base', 'web', {}, { name: 'a5' }));
    await w.client.create(SidecarSets, { ...logAgent('canary', 'web', { updateStrategy: { type: 'NotUpdate' } }, { name: 'a6' }),
      metadata: { name: 'canary', annotations: { 'apps.kruise.io/sidecarset-canary': 'true', 'apps.kruise.io/sidecarset-base': 'base' } } });
    await createPod(w.client, appPod('web-1', { app: 'web' }, {}, {}, 'shop'));
    await w.client.create(SidecarSets, logAgent('late', 'web', {}, { name: 'a7' }));
    await w.client.patch(SidecarSets, undefined, 'log-agent', 'merge', { spec: { updateStrategy: { paused: true }, containers: [{ ...logAgent().spec!.containers![0], image: 'busybox:1.36' }] } });
    await eventually('log-agent observed', async () => { const s = await getSet(w.client, 'log-agent'); return s.status?.observedGeneration === s.metadata.generation; });

    const { stdout } = await run(process.execPath, ['bin/kruise.js', 'sidecarset', 'explain', 'web-1', '-n', 'shop', '--kubeconfig', w.env.kubeconfig]);
    const rows = Object.fromEntries(stdout.trim().split('\n').slice(1).map((l) => { const [name, match, injected, ...why] = l.split(/\s+/); return [name, { match, injected, why: why.join(' ') }]; }));
    assert.match(stdout.split('\n')[0]!, /^SIDECARSET\s+MATCH\s+INJECTED\s+WHY$/);
    assert.deepEqual(rows['log-agent'], { match: 'yes', injected: 'yes', why: 'outdated: updateStrategy.paused' });
    assert.deepEqual(rows['other-app'], { match: 'no', injected: 'no', why: 'selector {"matchLabels":{"app":"db"}} does not match pod labels {"app":"web"}' });
    assert.deepEqual(rows['team-only'], { match: 'no', injected: 'no', why: 'namespaceSelector {"matchLabels":{"team":"a"}} does not select namespace shop' });
    assert.deepEqual(rows.paused, { match: 'no', injected: 'no', why: 'injectionStrategy.paused: new pods get no sidecar' });
    assert.deepEqual(rows.base, { match: 'no', injected: 'no', why: 'shadowed by canary SidecarSet canary' });
    assert.deepEqual(rows.canary, { match: 'yes', injected: 'yes', why: 'on the current version' });
    assert.deepEqual(rows.late, { match: 'yes', injected: 'no', why: 'selects the pod, but it was created before the SidecarSet (injection happens only at pod creation)' });
  });
});
