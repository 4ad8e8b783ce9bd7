import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Pod } from '../../api/core/index.js';
import { markedPod, type MarkerProbe, type PodProbeStatus } from './pod-marks.js';

const idle: MarkerProbe = {
  name: 'idle', containerName: 'main', probe: { exec: { command: ['true'] } }, podConditionType: 'game.io/idle',
  markerPolicy: [{ state: 'Succeeded', labels: { idle: 'true' } }, { state: 'Failed', annotations: { cost: '10' } }],
};
const pod = (labels: Record<string, string> = {}, annotations: Record<string, string> = {}): Pod => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p', namespace: 't', uid: 'u', labels, annotations },
  spec: { containers: [{ name: 'main' }] }, status: { conditions: [{ type: 'Ready', status: 'True' }] },
});
const status = (state: string, name = 'm#idle', message = ''): PodProbeStatus => ({
  name: 'p', namespace: 't', uid: 'u', probeStates: [{ name, state: state as 'Succeeded', message, lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:00Z' }],
});
const lookup = (probes: Record<string, MarkerProbe>) => (_ns: string, marker: string, probe: string) => probes[`${marker}#${probe}`];

describe('probe states as pod conditions and marks', () => {
  test('Succeeded: condition True with the state\'s times, the Succeeded labels set, the Failed annotations removed', () => {
    const next = markedPod(pod({}, { cost: '10' }), status('Succeeded'), lookup({ 'm#idle': idle }))!;
    assert.deepEqual(next.status!.conditions![1], { type: 'game.io/idle', status: 'True', lastProbeTime: '2026-01-01T00:00:01Z', lastTransitionTime: '2026-01-01T00:00:00Z', message: '' });
    assert.deepEqual([next.metadata.labels, next.metadata.annotations], [{ idle: 'true' }, {}]);
  });

  test('Failed: condition False, the Failed annotations set, the Succeeded labels removed', () => {
    const next = markedPod(pod({ idle: 'true', app: 'g' }), status('Failed', 'm#idle', 'exit 1'), lookup({ 'm#idle': idle }))!;
    assert.equal(next.status!.conditions![1].status, 'False');
    assert.deepEqual([next.metadata.labels, next.metadata.annotations], [{ app: 'g' }, { cost: '10' }]);
  });

  test('a single policy: its keys go on the opposite state; Unknown removes every policy\'s keys and reads False', () => {
    const single = { ...idle, podConditionType: undefined, markerPolicy: [{ state: 'Succeeded' as const, labels: { idle: 'true' } }] };
    assert.deepEqual(markedPod(pod({ idle: 'true' }), status('Failed'), lookup({ 'm#idle': single }))!.metadata.labels, {});
    const unknown = markedPod(pod({ idle: 'true' }, { cost: '10' }), status('Unknown'), lookup({ 'm#idle': idle }))!;
    assert.deepEqual([unknown.metadata.labels, unknown.metadata.annotations, unknown.status!.conditions![1].status], [{}, {}, 'False']);
  });

  test('nothing to change, an empty state, or a marker that is gone: undefined', () => {
    const done = markedPod(pod(), status('Succeeded'), lookup({ 'm#idle': idle }))!;
    assert.equal(markedPod(done, status('Succeeded'), lookup({ 'm#idle': idle })), undefined);
    assert.equal(markedPod(pod(), status(''), lookup({ 'm#idle': idle })), undefined);
    assert.equal(markedPod(pod(), status('Succeeded'), lookup({})), undefined);
  });

  test('an unchanged status and message keep the condition as it is (its transition time too)', () => {
    const done = markedPod(pod(), status('Succeeded'), lookup({ 'm#idle': idle }))!;
    const later: PodProbeStatus = { ...status('Succeeded'), probeStates: [{ ...status('Succeeded').probeStates![0], lastProbeTime: '2026-01-01T00:10:00Z' }] };
    assert.equal(markedPod(done, later, lookup({ 'm#idle': idle })), undefined);
  });

  test('the first probe of a condition type wins', () => {
    const other = { ...idle, name: 'other' };
    const both: PodProbeStatus = { ...status('Succeeded'), probeStates: [status('Succeeded').probeStates![0], { name: 'n#other', state: 'Failed' }] };
    const next = markedPod(pod(), both, lookup({ 'm#idle': idle, 'n#other': other }))!;
    assert.deepEqual(next.status!.conditions!.filter((c) => c.type === 'game.io/idle').map((c) => c.status), ['True']);
  });
});
