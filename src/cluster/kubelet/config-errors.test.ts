import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { ConfigMaps, Pods, Secrets } from '../../api/resource-type.js';
import { containerNamed, podObject, startKubeletEnv, type KubeletEnv } from '../../testing/kubelet-env.js';
import type { Container, Pod } from '../../api/core/index.js';

let k: KubeletEnv;

before(async () => {
  k = await startKubeletEnv();
});

after(() => k.stop());

const app = (extra: Partial<Container>): Container[] => [{ name: 'app', image: 'nginx:1.25', ...extra }];
const waiting = (p: Pod) => containerNamed(p, 'app')?.state?.waiting;
const configMap = (name: string, data: Record<string, string>): KObject => ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, namespace: 'default' }, data });

test('a missing ConfigMap key keeps the container in CreateContainerConfigError until the key appears', async () => {
  await k.client.create(ConfigMaps, configMap('settings', { other: 'x' }));
  const env = [{ name: 'MODE', valueFrom: { configMapKeyRef: { name: 'settings', key: 'mode' } } }];
  await k.client.create(Pods, podObject(k.node, 'needs-key', { containers: app({ env }) }));
  const pod = await k.podWhere('needs-key', (p) => waiting(p)?.reason === 'CreateContainerConfigError', 'config error');
  assert.equal(waiting(pod)!.message, "couldn't find key mode in ConfigMap default/settings");
  assert.equal(pod.status!.phase, 'Pending');
  assert.ok((await k.events('needs-key')).includes('Warning Failed: Error: couldn\'t find key mode in ConfigMap default/settings'));
  // no fake time passes: the ConfigMap watch retries the container at once
  await k.client.patch(ConfigMaps, 'default', 'settings', 'merge', { data: { mode: 'fast' } });
  await k.podWhere('needs-key', (p) => !!containerNamed(p, 'app')?.state?.running, 'running after the key appeared');
});

test('a missing ConfigMap or Secret is reported with kubelet\'s message; the container starts once it is created', async () => {
  await k.client.create(Pods, podObject(k.node, 'needs-cm', { containers: app({ envFrom: [{ configMapRef: { name: 'later' } }] }) }));
  const pod = await k.podWhere('needs-cm', (p) => waiting(p)?.reason === 'CreateContainerConfigError', 'config error');
  assert.equal(waiting(pod)!.message, 'configmap "later" not found');
  await k.client.create(ConfigMaps, configMap('later', { A: '1' }));
  await k.podWhere('needs-cm', (p) => !!containerNamed(p, 'app')?.state?.running, 'running after the ConfigMap appeared');

  const env = [{ name: 'PASSWORD', valueFrom: { secretKeyRef: { name: 'creds', key: 'password' } } }];
  await k.client.create(Pods, podObject(k.node, 'needs-secret', { containers: app({ env }) }));
  assert.equal(waiting(await k.podWhere('needs-secret', (p) => !!waiting(p)?.message, 'config error'))!.message, 'secret "creds" not found');
  await k.client.create(Secrets, { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'creds', namespace: 'default' }, data: { user: 'YQ==' } } as KObject);
  const keyMissing = await k.podWhere('needs-secret', (p) => waiting(p)?.message?.startsWith('couldn\'t') === true, 'key error');
  assert.equal(waiting(keyMissing)!.message, "couldn't find key password in Secret default/creds");
  await k.client.patch(Secrets, 'default', 'creds', 'merge', { data: { password: 'cw==' } });
  await k.podWhere('needs-secret', (p) => !!containerNamed(p, 'app')?.state?.running, 'running after the key appeared');
});

test('optional references to missing objects and keys are skipped', async () => {
  const env = [
    { name: 'A', valueFrom: { configMapKeyRef: { name: 'absent', key: 'a', optional: true } } },
    { name: 'B', valueFrom: { secretKeyRef: { name: 'creds', key: 'absent', optional: true } } },
  ];
  const envFrom = [{ secretRef: { name: 'absent', optional: true } }];
  await k.client.create(Pods, podObject(k.node, 'optional', { containers: app({ env, envFrom }) }));
  await k.podWhere('optional', (p) => !!containerNamed(p, 'app')?.state?.running, 'running');
});

test('without a change, retries back off: 10 s, then 20 s', async () => {
  const env = [{ name: 'X', valueFrom: { configMapKeyRef: { name: 'never', key: 'x' } } }];
  await k.client.create(Pods, podObject(k.node, 'backoff', { containers: app({ env }) }));
  await k.podWhere('backoff', (p) => waiting(p)?.reason === 'CreateContainerConfigError', 'config error');
  await k.advance(35_000, 500);
  assert.equal(waiting(await k.getPod('backoff'))?.reason, 'CreateContainerConfigError');
  assert.equal(await k.eventCount('backoff', 'Failed'), 3, 'tried at 0, 10 and 30 s');
});
