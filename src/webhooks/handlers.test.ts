import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { AdmissionRequest } from '../api/admission.js';
import type { KObject } from '../api/meta.js';
import type { Client } from '../client/client.js';
import { field } from '../machinery/errors.js';
import { admissionHandler, aggregateMessage } from './handlers.js';
import { AdmissionDenied, type AdmissionInput, type KindWebhooks } from './kind-webhook.js';

const client = {} as Client; // never called by these handlers
const ctx = { client, gate: (g: string) => g === 'On' };

function request(partial: Partial<AdmissionRequest> & Pick<AdmissionRequest, 'kind' | 'operation'>): AdmissionRequest {
  return { uid: 'u-1', resource: { group: partial.kind.group, version: partial.kind.version, resource: 'x' }, userInfo: { username: 'jane' }, ...partial };
}

const job = (apiVersion: string): KObject => ({
  apiVersion, kind: 'BroadcastJob', metadata: { name: 'j', namespace: 'ns', labels: { a: '1' } },
  spec: { template: { spec: { containers: [{ name: 'c', image: 'busybox' }] } } },
});
const jobKind = { group: 'apps.kruise.io', version: 'v1alpha1', kind: 'BroadcastJob' };
const decode = (patch?: string) => (patch ? JSON.parse(Buffer.from(patch, 'base64').toString('utf8')) : undefined);

describe('mutating handler', () => {
  test('patches the object as sent, after defaulting on the hub version', async () => {
    let seen: AdmissionInput | undefined;
    const hooks: KindWebhooks = {
      default(input) {
        seen = input;
        const obj = input.object!;
        (obj.spec as Record<string, unknown>).parallelism = 1;
        obj.metadata.labels!.b = '2';
        return obj;
      },
    };
    const res = await admissionHandler('mutating', hooks, ctx)!(request({ kind: jobKind, operation: 'CREATE', object: job('apps.kruise.io/v1alpha1') }));
    assert.equal(seen?.object?.apiVersion, 'apps.kruise.io/v1beta1', 'the kind sees the hub version');
    assert.equal(seen?.version, 'v1alpha1');
    assert.equal(seen?.gate('On'), true);
    assert.equal(res.allowed, true);
    assert.equal(res.uid, 'u-1');
    assert.equal(res.patchType, 'JSONPatch');
    assert.deepEqual(decode(res.patch), [
      { op: 'add', path: '/spec/parallelism', value: 1 },
      { op: 'add', path: '/metadata/labels/b', value: '2' },
    ]);
  });

  test('no patch when defaulting changes nothing; DELETE is allowed untouched', async () => {
    const hooks: KindWebhooks = { default: (input) => input.object! };
    const handler = admissionHandler('mutating', hooks, ctx)!;
    const unchanged = await handler(request({ kind: jobKind, operation: 'UPDATE', object: job('apps.kruise.io/v1alpha1'), oldObject: job('apps.kruise.io/v1alpha1') }));
    assert.equal(unchanged.allowed, true);
    assert.equal(unchanged.patch, undefined);
    assert.equal(unchanged.patchType, undefined);
    const deleted = await handler(request({ kind: jobKind, operation: 'DELETE', oldObject: job('apps.kruise.io/v1alpha1') }));
    assert.deepEqual([deleted.allowed, deleted.patch], [true, undefined]);
  });

  test('core kinds are handled as sent', async () => {
    const hooks: KindWebhooks = {
      default(input) {
        assert.equal(input.object!.apiVersion, 'v1');
        return { ...input.object!, metadata: { ...input.object!.metadata, annotations: { x: 'y' } } };
      },
    };
    const pod = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: {} };
    const res = await admissionHandler('mutating', hooks, ctx)!(request({ kind: { group: '', version: 'v1', kind: 'Pod' }, operation: 'CREATE', object: pod }));
    assert.deepEqual(decode(res.patch), [{ op: 'add', path: '/metadata/annotations', value: { x: 'y' } }]);
  });

  test('a kind without the hook has no handler', () => {
    assert.equal(admissionHandler('mutating', { validate: () => [] }, ctx), undefined);
    assert.equal(admissionHandler('validating', { default: (i) => i.object! }, ctx), undefined);
  });
});

describe('validating handler', () => {
  const create = (hooks: KindWebhooks) => admissionHandler('validating', hooks, ctx)!(request({ kind: jobKind, operation: 'CREATE', object: job('apps.kruise.io/v1alpha1') }));

  test('one field error: its message, code 422 by default', async () => {
    const res = await create({ validate: () => [field.required('spec.template', 'template is required')] });
    assert.equal(res.allowed, false);
    assert.deepEqual(res.status, { code: 422, message: 'spec.template: Required value: template is required' });
  });

  test('several field errors aggregate as [a, b] with the kind\'s code; duplicates once', async () => {
    const errs = [field.invalid('spec.parallelism', -1, 'must be >= 0'), field.forbidden('spec.x', 'no'), field.forbidden('spec.x', 'no')];
    const res = await create({ validate: () => errs, invalidCode: 400 });
    assert.equal(res.status?.code, 400);
    assert.equal(res.status?.message, '[spec.parallelism: Invalid value: -1: must be >= 0, spec.x: Forbidden: no]');
    assert.equal(aggregateMessage(errs), res.status?.message);
  });

  test('AdmissionDenied keeps its code; 403 has reason Forbidden', async () => {
    const forbidden = await create({ validate: () => { throw new AdmissionDenied(403, 'forbidden by label'); } });
    assert.deepEqual([forbidden.allowed, forbidden.status], [false, { code: 403, message: 'forbidden by label', reason: 'Forbidden' }]);
    const bad = await create({ validate: async () => { throw new AdmissionDenied(400, 'bad'); } });
    assert.deepEqual(bad.status, { code: 400, message: 'bad' });
  });

  test('an unexpected exception denies with 500 and its message', async () => {
    const res = await create({ validate: () => { throw new TypeError('boom'); } });
    assert.deepEqual([res.allowed, res.status], [false, { code: 500, message: 'boom' }]);
  });

  test('DELETE passes the old object on the hub version; no errors allow', async () => {
    let old: KObject | undefined;
    const hooks: KindWebhooks = { validate: (input) => { old = input.oldObject; return []; } };
    const res = await admissionHandler('validating', hooks, ctx)!(request({ kind: jobKind, operation: 'DELETE', oldObject: job('apps.kruise.io/v1alpha1') }));
    assert.equal(res.allowed, true);
    assert.equal(old?.apiVersion, 'apps.kruise.io/v1beta1');
    assert.equal(old?.metadata.name, 'j');
  });
});
