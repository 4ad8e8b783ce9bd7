import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { fieldErrorMessage } from '../../../machinery/errors.js';
import { validateEphemeralContainersUpdate } from './pod-update-validation.js';
import { findBuiltin, simulateCreate, simulateUpdate } from './strategy-harness.js';

const pods = findBuiltin('', 'pods');
const forbiddenPrefix = 'spec: Forbidden: pod updates may not change fields other than `spec.containers[*].image`,`spec.initContainers[*].image`,'
  + '`spec.activeDeadlineSeconds`,`spec.tolerations` (only additions to existing tolerations),'
  + '`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)\n';

function stored(spec: Record<string, unknown> = {}): KObject {
  const { object, errors } = simulateCreate(pods, {
    metadata: { name: 'p', namespace: 'default' },
    spec: { containers: [{ name: 'app', image: 'nginx:1.26', command: ['nginx'] }], ...spec },
  });
  assert.deepEqual(errors, []);
  return object;
}

function update(old: KObject, change: (spec: Record<string, unknown> & { containers: Record<string, unknown>[] }) => void): string[] {
  const next = structuredClone(old);
  change(next.spec as never);
  return simulateUpdate(pods, old, next).errors;
}

describe('pod update immutability', () => {
  test('changing a container image is allowed', () => {
    assert.deepEqual(update(stored(), (s) => { s.containers[0].image = 'nginx:1.27'; }), []);
  });

  test('changing a command is forbidden with upstream text and a diff', () => {
    const errors = update(stored(), (s) => { s.containers[0].command = ['sh']; });
    assert.equal(errors.length, 1);
    assert.ok(errors[0].startsWith(forbiddenPrefix), errors[0]);
    assert.match(errors[0], /core\.PodSpec\{/);
    assert.match(errors[0], /\+ \tContainers: .*"sh"/);
  });

  test('nodeName cannot be set or changed through an update', () => {
    assert.ok(update(stored(), (s) => { s.nodeName = 'n1'; })[0].startsWith(forbiddenPrefix));
    assert.ok(update(stored({ nodeName: 'n1' }), (s) => { s.nodeName = 'n2'; })[0].startsWith(forbiddenPrefix));
  });

  test('containers cannot be added or removed', () => {
    assert.deepEqual(update(stored(), (s) => { s.containers.push({ name: 'b', image: 'busybox' }); }),
      ['spec.containers: Forbidden: pod updates may not add or remove containers']);
  });

  test('tolerations may be added, not modified', () => {
    assert.deepEqual(update(stored(), (s) => {
      (s.tolerations as unknown[]).push({ key: 'k', operator: 'Exists', effect: 'NoSchedule' });
    }), []);
    const custom = stored({ tolerations: [{ key: 'k', operator: 'Equal', value: 'a', effect: 'NoSchedule' }] });
    assert.deepEqual(update(custom, (s) => { (s.tolerations as { value: string }[])[0].value = 'b'; }),
      ['spec.tolerations: Forbidden: existing toleration can not be modified except its tolerationSeconds']);
    // the default not-ready/unreachable tolerations come back on update, as DefaultTolerationSeconds re-adds them
    assert.deepEqual(update(stored(), (s) => { s.tolerations = []; }), []);
    assert.deepEqual(update(stored(), (s) => { (s.tolerations as { tolerationSeconds: number }[])[0].tolerationSeconds = 10; }), []);
  });

  test('activeDeadlineSeconds may be set and lowered only', () => {
    const old = stored();
    assert.deepEqual(update(old, (s) => { s.activeDeadlineSeconds = 100; }), []);
    const withDeadline = stored({ activeDeadlineSeconds: 100 });
    assert.deepEqual(update(withDeadline, (s) => { s.activeDeadlineSeconds = 50; }), []);
    assert.deepEqual(update(withDeadline, (s) => { s.activeDeadlineSeconds = 200; }),
      ['spec.activeDeadlineSeconds: Invalid value: 200: must be less than or equal to previous value']);
    assert.deepEqual(update(withDeadline, (s) => { delete s.activeDeadlineSeconds; }),
      ['spec.activeDeadlineSeconds: Invalid value: null: must not update from a positive integer to nil value']);
  });

  test('scheduling gates may only be removed', () => {
    const gated = stored({ schedulingGates: [{ name: 'example.com/a' }] });
    assert.deepEqual(update(gated, (s) => { s.schedulingGates = []; }), []);
    assert.deepEqual(update(gated, (s) => { s.schedulingGates = [{ name: 'example.com/a' }, { name: 'example.com/b' }]; }),
      ["spec.schedulingGates: Forbidden: only deletion is allowed, but found new scheduling gate 'example.com/b'"]);
  });

  test('a negative grace period may become 1, nothing else', () => {
    const negative = stored({ terminationGracePeriodSeconds: -1 });
    assert.deepEqual(update(negative, (s) => { s.terminationGracePeriodSeconds = 1; }), []);
    assert.ok(update(stored(), (s) => { s.terminationGracePeriodSeconds = 1; })[0].startsWith(forbiddenPrefix));
  });

  test('metadata-only and status writes pass', () => {
    const old = stored();
    const next = structuredClone(old);
    next.metadata.labels = { a: 'b' };
    assert.deepEqual(simulateUpdate(pods, old, next).errors, []);
  });
});

describe('ephemeral containers subresource', () => {
  test('existing ephemeral containers may not change or go away', () => {
    const old = stored({ ephemeralContainers: [{ name: 'debug', image: 'busybox' }] });
    const changed = structuredClone(old);
    (changed.spec as { ephemeralContainers: { image: string }[] }).ephemeralContainers[0].image = 'alpine';
    assert.deepEqual(validateEphemeralContainersUpdate(changed, old).map(fieldErrorMessage),
      ['spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be changed\n']);
    const removed = structuredClone(old);
    (removed.spec as { ephemeralContainers: unknown[] }).ephemeralContainers = [];
    assert.deepEqual(validateEphemeralContainersUpdate(removed, old).map(fieldErrorMessage),
      ['spec.ephemeralContainers: Forbidden: existing ephemeral containers "debug" may not be removed\n']);
    const added = structuredClone(old);
    (added.spec as { ephemeralContainers: unknown[] }).ephemeralContainers.push({ name: 'more', image: 'busybox' });
    assert.deepEqual(validateEphemeralContainersUpdate(added, old), []);
  });
});
