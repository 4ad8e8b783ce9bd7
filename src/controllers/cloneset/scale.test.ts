/**
 * The scale phase against a recording client: which pods one pass deletes for podsToDelete under
 * maxUnavailable (an unready and a ready pod specified together), and which it leaves for later.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Client } from '../../client/client.js';
import type { EventRecorder } from '../../runtime/events.js';
import { ResourceVersionExpectations, ScaleExpectations } from '../../runtime/expectations.js';
import { calculateDiffs, passNumbers } from './numbers.js';
import { groupCounts, newPassContext } from './pass.js';
import type { CloneSet } from './pods.js';
import { scalePhase } from './scale.js';
import type { ControllerRevision, Pod } from '../../api/core/index.js';

const revision = { metadata: { name: 'demo-v1' } } as ControllerRevision;

const pod = (name: string, ready: boolean): Pod => ({
  metadata: {
    name, namespace: 'default', uid: `uid-${name}`,
    labels: { app: 'demo', 'controller-revision-hash': 'demo-v1', 'lifecycle.apps.kruise.io/state': 'Normal' },
  },
  spec: { containers: [{ name: 'web', image: 'nginx' }] },
  status: { phase: 'Running', conditions: [{ type: 'Ready', status: ready ? 'True' : 'False' }] },
} as Pod);

const cloneSet = (replicas: number, rollingUpdate: Record<string, unknown>, podsToDelete: string[]): CloneSet => ({
  apiVersion: 'apps.kruise.io/v1beta1', kind: 'CloneSet',
  metadata: { name: 'demo', namespace: 'default', uid: 'cs-uid' },
  spec: {
    replicas, selector: { matchLabels: { app: 'demo' } }, template: {},
    scaleStrategy: { podsToDelete }, updateStrategy: { type: 'RollingUpdate', rollingUpdate },
  },
} as unknown as CloneSet);

/** One scale pass over `pods`; returns the names it deleted and the names it created. */
async function onePass(cs: CloneSet, pods: Pod[]): Promise<{ deleted: string[]; created: number }> {
  const deleted: string[] = [];
  let created = 0;
  const client = {
    delete: async (_t: unknown, _ns: string | undefined, name: string) => void deleted.push(name),
    create: async <T>(_t: unknown, obj: T) => (created++, obj),
  } as unknown as Client;
  const c = newPassContext({
    client, events: { event: () => undefined } as unknown as EventRecorder, expectations: new ScaleExpectations(),
    podUpdates: new ResourceVersionExpectations(), key: 'default/demo', cs, pods, owned: pods, claims: [], now: Date.now(), gate: () => false,
  }, 'demo-v1');
  const { nw, old } = groupCounts(c);
  await scalePhase(c, calculateDiffs(passNumbers(cs), nw, old), revision, revision);
  return { deleted: deleted.sort(), created };
}

describe('scale phase: specified deletes under maxUnavailable', () => {
  test('an unready and a ready pod specified together (R 4, maxUnavailable 1): only the unready one goes', async () => {
    const pods = [pod('a', false), pod('b', true), pod('c', true), pod('d', true)];
    const out = await onePass(cloneSet(4, { maxUnavailable: 1 }, ['a', 'b']), pods);
    assert.deepEqual(out.deleted, ['a'], 'deleting b too would leave 2 available pods, below R − maxUnavailable = 3');
  });

  test('once its replacement is available, the ready pod goes', async () => {
    const pods = [pod('b', true), pod('c', true), pod('d', true), pod('e', true)];
    const out = await onePass(cloneSet(4, { maxUnavailable: 1 }, ['b']), pods);
    assert.deepEqual(out.deleted, ['b']);
  });

  test('with maxUnavailable 2 both go in one pass', async () => {
    const pods = [pod('a', false), pod('b', true), pod('c', true), pod('d', true)];
    const out = await onePass(cloneSet(4, { maxUnavailable: 2 }, ['a', 'b']), pods);
    assert.deepEqual(out.deleted, ['a', 'b']);
  });

  test('maxSurge: with the surge pod ready, the unready pod goes and the ready one waits', async () => {
    // R 2, maxUnavailable 0, maxSurge 1: s is the surge pod created for the specified pods
    const pods = [pod('a', false), pod('b', true), pod('s', true)];
    const out = await onePass(cloneSet(2, { maxUnavailable: 0, maxSurge: 1 }, ['a', 'b']), pods);
    assert.deepEqual(out, { deleted: ['a'], created: 0 }, 'deleting b too would leave 1 available pod, below R − maxUnavailable = 2');
  });
});
