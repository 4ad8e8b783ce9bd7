import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { scenarioExamples } from '../../api/kruise/ops/scenario-examples.fixture.js';
import { admissionInput, assertHasError, assertNoErrors, fromYaml } from '../testkit.js';
import { ephemeralJobWebhooks as hooks } from './index.js';

type Doc = Record<string, any>; // any: free-form test edits of manifests
const debugJob = (): KObject => fromYaml(scenarioExamples.find((e) => e.name === 'EphemeralJob')!.yaml);
const withContainer = (patch: (c: Doc, spec: Doc) => void): KObject => {
  const obj = debugJob();
  const spec = obj.spec as Doc;
  patch(spec.template.ephemeralContainers[0], spec);
  return obj;
};
const validate = async (obj: KObject, oldObject?: KObject) => hooks.validate!(admissionInput({ object: obj, oldObject }));
const c0 = 'spec.template.ephemeralContainers[0]';

describe('EphemeralJob validation', () => {
  const invalid: [string, KObject, string, string][] = [
    ['ports', withContainer((c) => { c.ports = [{ containerPort: 80 }]; }), `${c0}.ports`, 'Forbidden: cannot be set for an Ephemeral Container'],
    ['resources', withContainer((c) => { c.resources = { limits: { cpu: '1' } }; }), `${c0}.resources`, 'cannot be set for an Ephemeral Container'],
    ['lifecycle', withContainer((c) => { c.lifecycle = { preStop: { exec: { command: ['x'] } } }; }), `${c0}.lifecycle`, 'cannot be set for an Ephemeral Container'],
    ['readinessProbe', withContainer((c) => { c.readinessProbe = { exec: { command: ['x'] } }; }), `${c0}.readinessProbe`, 'cannot be set for an Ephemeral Container'],
    ['subPath mount', withContainer((c) => { c.volumeMounts = [{ name: 'v', mountPath: '/v', subPath: 'x' }]; }), `${c0}.volumeMounts[0].subPath`, 'cannot be set for an Ephemeral Container'],
    ['no image', withContainer((c) => { delete c.image; }), `${c0}.image`, 'Required value'],
    ['image with spaces', withContainer((c) => { c.image = 'busybox '; }), `${c0}.image`, 'must not have leading or trailing whitespace'],
    ['upper-case name', withContainer((c) => { c.name = 'Dbg'; }), `${c0}.name`, 'a lowercase RFC 1123 label'],
    ['unknown pull policy', withContainer((c) => { c.imagePullPolicy = 'Sometimes'; }), `${c0}.imagePullPolicy`, 'Unsupported value: "Sometimes"'],
    ['duplicate names', withContainer((c, s) => { s.template.ephemeralContainers.push({ ...c }); }), 'spec.template.ephemeralContainers[1].name', 'Duplicate value: "dbg"'],
    ['bad selector operator', withContainer((_c, s) => { s.selector = { matchExpressions: [{ key: 'app', operator: 'Maybe' }] }; }),
      'spec.selector.matchExpressions[0].operator', 'not a valid selector operator'],
  ];
  for (const [name, obj, path, fragment] of invalid) {
    test(`rejects: ${name}`, async () => assertHasError(await validate(obj), path, fragment));
  }

  test('accepts the scenario manifest, mounts without subPath, empty resources and updates', async () => {
    assertNoErrors(await validate(debugJob()));
    const rich = withContainer((c) => {
      c.volumeMounts = [{ name: 'data', mountPath: '/data' }];
      c.env = [{ name: 'A', value: 'b' }];
      c.securityContext = { capabilities: { add: ['SYS_PTRACE'] } };
      c.resources = {};
      c.stdin = true;
      c.tty = true;
    });
    assertNoErrors(await validate(rich));
    assertNoErrors(await validate(withContainer((_c, s) => { s.paused = true; }), debugJob()));
  });

  test('validating only, 400 on field errors', () => {
    assert.equal(hooks.default, undefined);
    assert.equal(hooks.invalidCode, 400);
  });
});
