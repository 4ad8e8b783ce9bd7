import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import type { ProbeResult } from './results.js';
import { nextStatus } from './status.js';

const t0 = Date.parse('2026-01-01T00:00:00Z');
const iso = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
const npp = (probes: string[], status?: NodePodProbe['status']): NodePodProbe => ({
  apiVersion: 'apps.kruise.io/v1alpha1', kind: 'NodePodProbe', metadata: { name: 'n' },
  spec: { podProbes: [{ name: 'p', namespace: 't', uid: 'u', IP: '', probes: probes.map((name) => ({ name, containerName: 'main', probe: {} })) }] },
  status,
});
const result = (probeName: string, state: ProbeResult['state'], at: number, message = ''): ProbeResult => ({
  target: { podNamespace: 't', podName: 'p', podUid: 'u', containerName: 'main', probeName, podIP: '' }, state, message, probedAt: at, fresh: true,
});

describe('the NodePodProbe status the daemon writes', () => {
  test('a first result: its state, probe time and a transition now', () => {
    assert.deepEqual(nextStatus(npp(['m#a']), [result('m#a', 'Succeeded', t0)], t0 + 5), { podProbeStatuses: [{
      name: 'p', namespace: 't', uid: 'u',
      probeStates: [{ name: 'm#a', state: 'Succeeded', message: '', lastProbeTime: iso(t0), lastTransitionTime: iso(t0 + 5) }],
    }] });
  });

  test('the same state keeps its transition time; another state moves it; messages are cut at 1024', () => {
    const before = nextStatus(npp(['m#a']), [result('m#a', 'Succeeded', t0)], t0);
    const same = nextStatus(npp(['m#a'], before), [result('m#a', 'Succeeded', t0 + 60_000)], t0 + 60_000);
    assert.equal(same.podProbeStatuses![0].probeStates![0].lastTransitionTime, iso(t0));
    const flipped = nextStatus(npp(['m#a'], before), [result('m#a', 'Failed', t0 + 60_000, 'x'.repeat(2000))], t0 + 60_000);
    const state = flipped.podProbeStatuses![0].probeStates![0];
    assert.deepEqual([state.state, state.lastTransitionTime, state.message!.length], ['Failed', iso(t0 + 60_000), 1024]);
  });

  test('states of probes that left the spec are dropped, and pods left without states', () => {
    const before = nextStatus(npp(['m#a', 'm#b']), [result('m#a', 'Succeeded', t0), result('m#b', 'Failed', t0)], t0);
    assert.deepEqual(nextStatus(npp(['m#a'], before), [result('m#b', 'Failed', t0)], t0).podProbeStatuses![0].probeStates!.map((s) => s.name), ['m#a']);
    assert.deepEqual(nextStatus(npp([], before), [], t0), {});
  });
});
