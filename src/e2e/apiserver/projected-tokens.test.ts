/**
 * ServiceAccount token volumes in `kruise up` (docs/design/authorization.md §16): pod admission
 * mounts `kube-api-access-<5>` in every container, the simulated kubelet fills it with a token bound
 * to the pod, `kubectl exec ... cat` reads it, the API server takes it as the pod's ServiceAccount,
 * and refuses it once the pod is gone.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { upForSuite } from '../../testing/up-suite.js';
import { eventually } from '../../testing/workload-env.js';

const tokenPath = '/var/run/secrets/kubernetes.io/serviceaccount';

describe('projected ServiceAccount tokens in kruise up', () => {
  const { kubectl, run } = upForSuite('tokens');

  test('a missing ServiceAccount is refused with kube-apiserver\'s message', async () => {
    const r = await kubectl(['run', 'lost', '--image=busybox:1', '--overrides', '{"spec":{"serviceAccountName":"nope"}}'], { minor: 32 });
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim(), 'Error from server (Forbidden): pods "lost" is forbidden: error looking up service account default/nope: serviceaccount "nope" not found');
  });

  test('the pod\'s token is read through exec, authenticates as its ServiceAccount, and dies with the pod', async () => {
    await eventually('the default ServiceAccount', () => run(['get', 'sa', 'default', '-o', 'name']).catch(() => undefined), 30_000);
    await run(['run', 'app', '--image=busybox:1', '--', 'sleep', '3600']);
    const volume = await run(['get', 'pod', 'app', '-o', 'jsonpath={.spec.volumes[0].name} {.spec.containers[0].volumeMounts[0].mountPath}']);
    assert.match(volume, new RegExp(`^kube-api-access-[a-z0-9]{5} ${tokenPath}$`));
    await run(['wait', '--for=condition=Ready', 'pod/app', '--timeout=60s']);
    const token = await eventually('a token in the volume', async () => {
      const r = await kubectl(['exec', 'app', '--', 'cat', `${tokenPath}/token`], { minor: 32 });
      return r.code === 0 && r.stdout.split('.').length === 3 ? r.stdout : undefined;
    }, 30_000);
    assert.equal((await run(['exec', 'app', '--', 'cat', `${tokenPath}/namespace`])).trim(), 'default');
    assert.match(await run(['exec', 'app', '--', 'cat', `${tokenPath}/ca.crt`]), /^-----BEGIN CERTIFICATE-----/);
    const whoami = async () => kubectl(['auth', 'whoami', '--token', token, '-o', 'jsonpath={.status.userInfo.username} {.status.userInfo.extra.authentication\\.kubernetes\\.io/pod-name[0]}'], { minor: 32 });
    assert.equal((await whoami()).stdout, 'system:serviceaccount:default:default app');
    await run(['delete', 'pod', 'app', '--grace-period=0', '--force']);
    await eventually('the pod gone', async () => ((await kubectl(['get', 'pod', 'app'], { minor: 32 })).code === 1 ? true : undefined), 30_000);
    const refused = await whoami();
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Unauthorized/);
  });
});
