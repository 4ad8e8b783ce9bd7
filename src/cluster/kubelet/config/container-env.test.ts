import { test } from 'node:test';
import assert from 'node:assert/strict';
import { containerEnv } from './container-env.js';
import type { Pod } from '../../../api/core/index.js';

const none = { configMap: () => undefined, secret: () => undefined };
const ref = (name: string, fieldPath: string) => ({ name, valueFrom: { fieldRef: { fieldPath } } });

test('fieldRef env reads the pod as it is when the container is created; absent keys are empty; status fields are not simulated', () => {
  const pod = {
    metadata: { name: 'p', namespace: 'ns', uid: 'u1', labels: { tier: 'web' }, annotations: { x: 'v1' } },
    spec: {
      nodeName: 'node-a', serviceAccountName: 'sa',
      containers: [{ name: 'app', env: [
        ref('X', "metadata.annotations['x']"), ref('T', "metadata.labels['tier']"), ref('MISSING', "metadata.labels['nope']"),
        ref('NAME', 'metadata.name'), ref('NS', 'metadata.namespace'), ref('UID', 'metadata.uid'), ref('NODE', 'spec.nodeName'),
        ref('SA', 'spec.serviceAccountName'), ref('IP', 'status.podIP'), { name: 'PLAIN', value: 'p' },
      ] }],
    },
  } as Pod;
  assert.deepEqual(Object.fromEntries(containerEnv(pod, pod.spec.containers[0]!, none).map((e) => [e.key, e.value])), {
    X: 'v1', T: 'web', MISSING: '', NAME: 'p', NS: 'ns', UID: 'u1', NODE: 'node-a', SA: 'sa', PLAIN: 'p',
  });
});
