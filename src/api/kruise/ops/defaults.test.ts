import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import {
  defaultAdvancedCronJob, defaultBroadcastJob, defaultContainerRecreateRequest, defaultImageListPullJob,
  defaultImagePullJob, defaultNodeImage, defaultSidecarSet,
} from './defaults.js';
import type { AdvancedCronJob } from './advancedcronjob.js';
import type { BroadcastJob } from './broadcastjob.js';
import type { SidecarSet } from './sidecarset.js';

const meta = { name: 'x', namespace: 't' };
const template = { spec: { restartPolicy: 'Never', containers: [{ name: 'w', image: 'busybox' }] } };

describe('BroadcastJob defaults', () => {
  test('fills completionPolicy, parallelism and failurePolicy', () => {
    const out = defaultBroadcastJob({ metadata: meta, spec: { template } });
    assert.deepEqual(out.spec, { template, completionPolicy: { type: 'Always' }, parallelism: 2147483647, failurePolicy: { type: 'FailFast' } });
  });

  test('keeps given values and the other policy fields', () => {
    const spec = { template, parallelism: '50%', completionPolicy: { type: 'Never' as const }, failurePolicy: { restartLimit: 2 } };
    const out = defaultBroadcastJob({ metadata: meta, spec });
    assert.deepEqual(out.spec, { ...spec, failurePolicy: { restartLimit: 2, type: 'FailFast' } });
  });
});

describe('AdvancedCronJob defaults', () => {
  test('BroadcastJob template: Allow, not paused, history 3/1; the child spec is left alone', () => {
    const spec = { schedule: '* * * * *', template: { broadcastJobTemplate: { spec: { template } } } };
    const out = defaultAdvancedCronJob({ metadata: meta, spec });
    assert.deepEqual(out.spec, { ...spec, concurrencyPolicy: 'Allow', paused: false, successfulJobsHistoryLimit: 3, failedJobsHistoryLimit: 1 });
  });

  test('ImageListPullJob template: Replace and pull defaults only when completionPolicy.type is empty', () => {
    const acj = (completionPolicy: { type?: 'Always' | 'Never' }): AdvancedCronJob => ({
      metadata: meta, spec: { schedule: '@hourly', template: { imageListPullJobTemplate: { spec: { images: ['nginx'], completionPolicy } } } },
    });
    const out = defaultAdvancedCronJob(acj({}));
    assert.equal(out.spec?.concurrencyPolicy, 'Replace');
    assert.deepEqual(out.spec?.template.imageListPullJobTemplate?.spec, {
      images: ['nginx'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent',
    });
    const given = defaultAdvancedCronJob(acj({ type: 'Never' }));
    assert.deepEqual(given.spec?.template.imageListPullJobTemplate?.spec, { images: ['nginx'], completionPolicy: { type: 'Never' } });
  });
});

describe('SidecarSet defaults', () => {
  const base: SidecarSet = {
    metadata: { name: 's' },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      initContainers: [{ name: 'init', image: 'busybox' }],
      containers: [{
        name: 'agent', image: 'busybox', ports: [{ containerPort: 80 }],
        env: [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } }],
        transferEnv: [{ sourceContainerNameFrom: { fieldRef: { fieldPath: "metadata.labels['c']" } }, envName: 'X' }],
      }],
      volumes: [{ name: 'logs' }],
      patchPodMetadata: [{ annotations: { a: 'b' } }],
      injectionStrategy: { revision: { revisionName: 'r' } },
    },
  };

  test('strategies, container policies and limits', () => {
    const seen: string[] = [];
    const out = defaultSidecarSet(base, { container: (c) => seen.push(`c:${String(c.name)}`), volume: (v) => seen.push(`v:${String(v.name)}`) });
    const spec = out.spec!;
    assert.deepEqual(spec.updateStrategy, { type: 'RollingUpdate', maxUnavailable: 1, partition: 0 });
    assert.equal(spec.revisionHistoryLimit, 10);
    assert.equal(spec.patchPodMetadata?.[0].patchPolicy, 'Retain');
    assert.equal(spec.injectionStrategy?.revision?.policy, 'Always');
    const [init] = spec.initContainers!;
    const [agent] = spec.containers!;
    assert.equal(init.podInjectPolicy, 'AfterAppContainer');
    assert.equal(agent.podInjectPolicy, 'BeforeAppContainer');
    assert.deepEqual(agent.upgradeStrategy, { upgradeType: 'ColdUpgrade' });
    assert.deepEqual(agent.shareVolumePolicy, { type: 'disabled' });
    assert.deepEqual(agent.ports, [{ containerPort: 80, protocol: 'TCP' }]);
    assert.deepEqual(agent.env, [{ name: 'N', valueFrom: { fieldRef: { fieldPath: 'metadata.name', apiVersion: 'v1' } } }]);
    assert.equal(agent.transferEnv?.[0].sourceContainerNameFrom?.fieldRef?.apiVersion, 'v1');
    assert.deepEqual(seen, ['c:init', 'c:agent', 'v:logs']);
  });

  test('an absent injectionStrategy becomes {} and no revision policy appears', () => {
    const out = defaultSidecarSet({ metadata: { name: 's' }, spec: { selector: {} } });
    assert.deepEqual(out.spec?.injectionStrategy, {});
  });
});

describe('ContainerRecreateRequest, ImagePullJob, ImageListPullJob and NodeImage defaults', () => {
  test('CRR failurePolicy Fail, other strategy fields kept', () => {
    const out = defaultContainerRecreateRequest({ metadata: meta, spec: { podName: 'p', containers: [{ name: 'a' }], strategy: { orderedRecreate: true } } });
    assert.deepEqual(out.spec?.strategy, { orderedRecreate: true, failurePolicy: 'Fail' });
  });

  test('ImagePullJob policies and the optional protection finalizer, added once', () => {
    const job = { metadata: { ...meta, finalizers: ['f'] }, spec: { image: 'nginx', completionPolicy: {}, pullPolicy: { timeoutSeconds: 10 } } };
    const out = defaultImagePullJob(job, { addProtectionFinalizer: true });
    assert.deepEqual(out.spec, { image: 'nginx', completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 10, backoffLimit: 3 }, imagePullPolicy: 'IfNotPresent' });
    assert.deepEqual(out.metadata?.finalizers, ['f', 'apps.kruise.io/deletion-protection']);
    assert.deepEqual(defaultImagePullJob(out, { addProtectionFinalizer: true }).metadata?.finalizers, out.metadata?.finalizers);
    assert.deepEqual(defaultImagePullJob(job).metadata?.finalizers, ['f']);
  });

  test('ImageListPullJob gets no imagePullPolicy', () => {
    const out = defaultImageListPullJob({ metadata: meta, spec: { images: ['a'], completionPolicy: {} } });
    assert.deepEqual(out.spec, { images: ['a'], completionPolicy: { type: 'Always' }, pullPolicy: { timeoutSeconds: 600, backoffLimit: 3 } });
  });

  test('NodeImage tags get createdAt and pull policy, keeping ttl', () => {
    const now = '2024-01-01T00:00:00Z';
    const out = defaultNodeImage({ metadata: { name: 'n1' }, spec: { images: { nginx: { tags: [
      { tag: '1', pullPolicy: { ttlSecondsAfterFinished: 300 } },
      { tag: '2', createdAt: '2023-01-01T00:00:00Z', pullPolicy: { timeoutSeconds: 5, backoffLimit: 0 } },
    ] } } } }, now);
    assert.deepEqual(out.spec?.images?.nginx.tags, [
      { tag: '1', createdAt: now, pullPolicy: { ttlSecondsAfterFinished: 300, timeoutSeconds: 600, backoffLimit: 3 } },
      { tag: '2', createdAt: '2023-01-01T00:00:00Z', pullPolicy: { timeoutSeconds: 5, backoffLimit: 0 } },
    ]);
  });
});

describe('defaulting is a pure, idempotent function', () => {
  const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
  const bcj = fc.record({
    parallelism: maybe(fc.oneof(fc.nat(), fc.constant('50%'))),
    completionPolicy: maybe(fc.record({ type: maybe(fc.constantFrom('Always' as const, 'Never' as const)), activeDeadlineSeconds: maybe(fc.nat()) }, { requiredKeys: [] })),
    failurePolicy: maybe(fc.record({ type: maybe(fc.constantFrom('Continue' as const, 'FailFast' as const, 'Pause' as const)), restartLimit: maybe(fc.nat()) }, { requiredKeys: [] })),
  }, { requiredKeys: [] }).map((s): BroadcastJob => ({ metadata: meta, spec: { ...JSON.parse(JSON.stringify(s)), template } }));

  test('BroadcastJob: input untouched, second pass changes nothing, given values kept', () => {
    fc.assert(fc.property(bcj, (job) => {
      const before = structuredClone(job);
      const once = defaultBroadcastJob(job);
      assert.deepEqual(job, before);
      assert.deepEqual(defaultBroadcastJob(once), once);
      if (job.spec?.parallelism !== undefined) assert.equal(once.spec?.parallelism, job.spec.parallelism);
      if (job.spec?.completionPolicy?.type) assert.equal(once.spec?.completionPolicy?.type, job.spec.completionPolicy.type);
    }), { numRuns: 200 });
  });
});
