/**
 * Env from metadata end to end (docs/design/container-meta.md §7): a CloneSet whose container reads
 * annotation `x` through an env fieldRef, one simulated node with its kruise-daemon, the manager's
 * CloneSet controller; every pod version is watched so an early completion cannot slip between polls.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { AdvancedStatefulSets, CloneSets } from '../../api/kruise/resource-types.js';
import { expectedEnvHash } from '../../control/containermeta/index.js';
import { watchPods } from '../../testing/pod-watch.js';
import { eventually, holds } from '../../testing/workload-env.js';
import {
  app, conditionOf, containerIdOf, envCloneSet, envStatefulSet, metaOf, ns, onlyPod, restartCountOf, runtimeEnv, setAnnotationX, startDaemons, startEnvMetaEnv,
} from './test-kit.js';
import type { Pod } from '../../api/core/index.js';

const inPlaceState = (pod: Pod) => JSON.parse(pod.metadata.annotations?.['apps.kruise.io/inplace-update-state'] ?? '{}') as { updateEnvFromMetadata?: boolean };

/** The pod is running with its meta reported for the container it runs now. */
async function reported(w: Awaited<ReturnType<typeof startEnvMetaEnv>>): Promise<Pod> {
  return eventually('runtime-containers-meta for the running container', async () => {
    const pod = await onlyPod(w);
    const meta = pod && metaOf(pod);
    return meta && meta.containers[0]?.containerID === containerIdOf(pod) && conditionOf(pod, 'Ready') === 'True' && pod;
  }, 30_000);
}

describe('container meta and env from metadata (kruise-daemon + CloneSet)', () => {
  test('gate on: an annotation read by env restarts the container once, in place; the update completes only after it; a daemon restart changes nothing', async () => {
    const gates = 'InPlaceUpdateEnvFromMetadata=true';
    const w = await startEnvMetaEnv(gates);
    let daemons: Awaited<ReturnType<typeof startDaemons>> | undefined;
    try {
      await w.client.create(CloneSets, envCloneSet('v1'));
      const before = await reported(w);
      const meta = metaOf(before)!;
      // upstream's shape, key for key
      assert.deepEqual(Object.keys(meta.containers[0]!), ['name', 'containerID', 'restartCount', 'hashes']);
      assert.deepEqual(Object.keys(meta.containers[0]!.hashes), ['plainHash', 'plainHashWithoutResources', 'extractedEnvFromMetadataHash']);
      assert.equal(meta.containers[0]!.name, 'app');
      assert.equal(meta.containers[0]!.restartCount, 0);
      assert.ok(meta.containers[0]!.hashes.plainHash > 0);
      assert.equal(meta.containers[0]!.hashes.extractedEnvFromMetadataHash, expectedEnvHash(before.spec.containers[0]!, before.metadata));
      assert.deepEqual((({ X, Y, PLAIN }) => ({ X, Y, PLAIN }))(await runtimeEnv(w, before)), { X: 'v1', Y: 'fixed', PLAIN: 'p' });

      // Every pod version: once the pod carries x=v2, InPlaceUpdateReady may only be True on a restarted container.
      const watch = await watchPods(w.client, ns, app, ({ event: { pod } }) => {
        if (pod.metadata.annotations?.x === 'v2' && restartCountOf(pod) === 0 && conditionOf(pod, 'InPlaceUpdateReady') === 'True') {
          return `in-place update completed before the container restarted (rv ${pod.metadata.resourceVersion})`;
        }
        return undefined;
      });
      await setAnnotationX(w, 'v2');
      const after = await eventually('the container restarted and the update completed', async () => {
        const pod = await onlyPod(w);
        return pod && restartCountOf(pod) === 1 && conditionOf(pod, 'InPlaceUpdateReady') === 'True' && conditionOf(pod, 'Ready') === 'True' && pod;
      }, 30_000);
      watch.stop();
      assert.equal(watch.violation(), undefined);
      assert.ok(watch.history().some((e) => e.pod.metadata.annotations?.x === 'v2' && conditionOf(e.pod, 'InPlaceUpdateReady') === 'False'), 'InPlaceUpdateReady was False during the update');
      assert.equal(after.metadata.uid, before.metadata.uid, 'same pod');
      assert.notEqual(containerIdOf(after), containerIdOf(before), 'a new container');
      assert.equal(inPlaceState(after).updateEnvFromMetadata, true);
      assert.equal((await runtimeEnv(w, after)).X, 'v2', 'the new value is in the container\'s environment');
      await eventually('meta of the new container', async () => {
        const pod = await onlyPod(w);
        const m = pod && metaOf(pod)?.containers[0];
        return m && m.containerID === containerIdOf(pod) && m.restartCount === 1 && m.hashes.extractedEnvFromMetadataHash === expectedEnvHash(pod.spec.containers[0]!, pod.metadata);
      });
      await holds('exactly one restart', async () => {
        const pod = await onlyPod(w);
        return pod && restartCountOf(pod) !== 1 ? `restartCount ${restartCountOf(pod)}` : undefined;
      }, 2_500);

      await w.daemons()!.stop();
      daemons = await startDaemons(w, gates);
      await holds('no restart after the daemon restarted', async () => {
        const pod = await onlyPod(w);
        return pod && (restartCountOf(pod) !== 1 || containerIdOf(pod) !== containerIdOf(after)) ? `restartCount ${restartCountOf(pod)}, ${containerIdOf(pod)}` : undefined;
      }, 3_000);
    } finally {
      await daemons?.stop();
      await w.stop();
    }
  });

  test('gate off: the annotation changes in place with no restart, as upstream; the container keeps its old value', async () => {
    const w = await startEnvMetaEnv('InPlaceUpdateEnvFromMetadata=false');
    try {
      await w.client.create(CloneSets, envCloneSet('v1'));
      const before = await reported(w);
      assert.equal(metaOf(before)!.containers[0]!.hashes.extractedEnvFromMetadataHash, undefined, 'no env hash without the gate');
      await setAnnotationX(w, 'v2');
      const after = await eventually('the pod carries x=v2 and the update completed', async () => {
        const pod = await onlyPod(w);
        return pod && pod.metadata.annotations?.x === 'v2' && conditionOf(pod, 'InPlaceUpdateReady') === 'True' && pod;
      }, 30_000);
      assert.equal(after.metadata.uid, before.metadata.uid);
      assert.equal(inPlaceState(after).updateEnvFromMetadata, undefined);
      await holds('no restart', async () => {
        const pod = await onlyPod(w);
        return pod && (restartCountOf(pod) !== 0 || containerIdOf(pod) !== containerIdOf(before)) ? `restartCount ${restartCountOf(pod)}` : undefined;
      }, 2_500);
      assert.equal((await runtimeEnv(w, after)).X, 'v1', 'the running container still has the value it started with');
    } finally {
      await w.stop();
    }
  });

  test('daemon down during the update: the update waits (InPlaceUpdateReady False, no restart); the daemon back restarts the container once', async () => {
    const gates = 'InPlaceUpdateEnvFromMetadata=true';
    const w = await startEnvMetaEnv(gates);
    let daemons: Awaited<ReturnType<typeof startDaemons>> | undefined;
    try {
      await w.client.create(CloneSets, envCloneSet('v1'));
      const before = await reported(w);
      await w.daemons()!.stop();
      await setAnnotationX(w, 'v2');
      await eventually('the pod carries x=v2, not ready for the update', async () => {
        const pod = await onlyPod(w);
        return pod && pod.metadata.annotations?.x === 'v2' && conditionOf(pod, 'InPlaceUpdateReady') === 'False';
      }, 30_000);
      await holds('no daemon: no restart, the update does not complete', async () => {
        const pod = await onlyPod(w);
        return pod && (restartCountOf(pod) !== 0 || conditionOf(pod, 'InPlaceUpdateReady') !== 'False') ? `restartCount ${restartCountOf(pod)}, InPlaceUpdateReady ${conditionOf(pod, 'InPlaceUpdateReady')}` : undefined;
      }, 2_000);
      daemons = await startDaemons(w, gates);
      const after = await eventually('restarted and completed', async () => {
        const pod = await onlyPod(w);
        return pod && restartCountOf(pod) === 1 && conditionOf(pod, 'InPlaceUpdateReady') === 'True' && pod;
      }, 30_000);
      assert.equal(after.metadata.uid, before.metadata.uid);
      assert.equal((await runtimeEnv(w, after)).X, 'v2');
      await holds('exactly one restart', async () => {
        const pod = await onlyPod(w);
        return pod && restartCountOf(pod) !== 1 ? `restartCount ${restartCountOf(pod)}` : undefined;
      }, 2_000);
    } finally {
      await daemons?.stop();
      await w.stop();
    }
  });

  test('Advanced StatefulSet: the same change restarts its pod\'s container once, in place', async () => {
    const w = await startEnvMetaEnv('InPlaceUpdateEnvFromMetadata=true');
    try {
      await w.client.create(AdvancedStatefulSets, envStatefulSet('v1'));
      const before = await reported(w);
      await setAnnotationX(w, 'v2', 'StatefulSet');
      const after = await eventually('restarted and completed', async () => {
        const pod = await onlyPod(w);
        return pod && restartCountOf(pod) === 1 && pod.metadata.annotations?.x === 'v2' && conditionOf(pod, 'InPlaceUpdateReady') === 'True' && pod;
      }, 30_000);
      assert.equal(after.metadata.uid, before.metadata.uid);
      assert.equal(inPlaceState(after).updateEnvFromMetadata, true);
      assert.equal((await runtimeEnv(w, after)).X, 'v2');
    } finally {
      await w.stop();
    }
  });
});
