import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import type { PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';
import { desiredNodeSpec, type NodeProbeSpec } from './node-probes.js';

const marker = (probes: NonNullable<PodProbeMarker['spec']>['probes']): PodProbeMarker => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'PodProbeMarker', metadata: { name: 'm', namespace: 't' },
  spec: { selector: { matchLabels: { app: 'g' } }, probes },
});
const exec = (name: string) => ({ name, containerName: 'main', probe: { exec: { command: [name] } }, podConditionType: `x.io/${name}` });
const pod = (name: string, ip = '10.0.0.1'): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name, namespace: 't', uid: `uid-${name}` },
  spec: { containers: [{ name: 'main', ports: [{ name: 'http', containerPort: 8080 }] }] }, status: { podIP: ip },
});
const probe = (name: string) => ({ name: `m#${name}`, containerName: 'main', probe: { exec: { command: [name] } } });

describe('the NodePodProbe spec a marker wants', () => {
  test('a matched pod gets an entry with its IP and the probes named <marker>#<probe>', () => {
    assert.deepEqual(desiredNodeSpec({}, marker([exec('a')]), [pod('p')]).podProbes,
      [{ name: 'p', namespace: 't', uid: 'uid-p', IP: '10.0.0.1', probes: [probe('a')] }]);
  });

  test('other markers\' probes stay in place; ours are updated in place, added at the end, removed when gone', () => {
    const spec: NodeProbeSpec = { podProbes: [{ name: 'p', namespace: 't', uid: 'uid-p', IP: '', probes: [probe('old'), { name: 'n#x', containerName: 'main', probe: {} }, { ...probe('a'), probe: {} }] }] };
    const next = desiredNodeSpec(spec, marker([exec('a'), exec('b')]), [pod('p')]);
    assert.deepEqual(next.podProbes![0].probes!.map((p) => p.name), ['n#x', 'm#a', 'm#b']);
    assert.deepEqual(next.podProbes![0].probes![1], probe('a'));
    assert.equal(next.podProbes![0].IP, '10.0.0.1', 'an empty IP is filled');
  });

  test('a pod no longer matched loses our probes; an entry left empty is dropped; other namespaces are left alone', () => {
    const spec: NodeProbeSpec = { podProbes: [
      { name: 'p', namespace: 't', uid: 'uid-p', IP: 'x', probes: [probe('a')] },
      { name: 'p', namespace: 'other', uid: 'uid-o', IP: 'y', probes: [probe('a')] },
    ] };
    assert.deepEqual(desiredNodeSpec(spec, marker([exec('a')]), []).podProbes!.map((e) => e.namespace), ['other']);
  });

  test('named ports become the container\'s numbers; a name that resolves to nothing leaves the probe out', () => {
    const tcp = { name: 'tcp', containerName: 'main', probe: { tcpSocket: { port: 'http' } }, podConditionType: 'x.io/tcp' };
    const http = { name: 'web', containerName: 'main', probe: { httpGet: { port: 'metrics', path: '/', scheme: 'HTTP' } }, podConditionType: 'x.io/web' };
    const probes = desiredNodeSpec({}, marker([tcp, http]), [pod('p')]).podProbes![0].probes!;
    assert.deepEqual(probes.map((p) => [p.name, p.probe.tcpSocket?.port]), [['m#tcp', 8080]]);
  });
});
