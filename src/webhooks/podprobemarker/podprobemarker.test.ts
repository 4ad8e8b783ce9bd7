import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { invalidExamples } from '../../api/kruise/ops/invalid-examples.fixture.js';
import { scenarioExamples } from '../../api/kruise/ops/scenario-examples.fixture.js';
import { specExamples } from '../../api/kruise/ops/spec-examples.fixture.js';
import { admissionInput, assertHasError, assertNoErrors, denial, fromYaml, type InputOptions } from '../testkit.js';
import { podProbeMarkerWebhooks as hooks } from './index.js';

type Doc = Record<string, any>; // any: free-form test edits of manifests
const idle = (): KObject => fromYaml(specExamples.find((e) => e.name === 'PodProbeMarker idle')!.yaml);
const web = (): KObject => fromYaml(scenarioExamples.find((e) => e.name.startsWith('PodProbeMarker'))!.yaml);
const edit = (obj: KObject, patch: (spec: Doc) => void): KObject => {
  const copy = structuredClone(obj);
  patch(copy.spec as Doc);
  return copy;
};
const probe0 = (patch: (p: Doc) => void) => edit(idle(), (s) => patch(s.probes[0]));
const gates = { KruiseDaemon: true, PodProbeMarkerGate: true };
const validate = async (obj: KObject, o: InputOptions = {}) => hooks.validate!(admissionInput({ object: obj, ...o, gates: { ...gates, ...o.gates } }));
const p0 = 'spec.probes[0]';

describe('PodProbeMarker validation', () => {
  const invalid: [string, KObject, string, string][] = [
    ['httpGet without scheme', edit(web(), (s) => { delete s.probes[0].probe.httpGet.scheme; }), `${p0}.probe.httpGet.scheme`, 'Unsupported value: "": supported values: "HTTP", "HTTPS"'],
    ['httpGet without path', edit(web(), (s) => { delete s.probes[0].probe.httpGet.path; }), `${p0}.probe.httpGet.path`, 'Required value'],
    ['httpGet with a host', edit(web(), (s) => { s.probes[0].probe.httpGet.host = '10.0.0.1'; }), `${p0}.probe.httpGet.host`, 'Forbidden'],
    ['httpGet header with a space', edit(web(), (s) => { s.probes[0].probe.httpGet.httpHeaders = [{ name: 'X Y', value: 'z' }]; }),
      `${p0}.probe.httpGet.httpHeaders[0].name`, 'a valid HTTP header must consist of alphanumeric characters'],
    ['probe named Ready', probe0((p) => { p.name = 'Ready'; }), `${p0}.name`, "probe name can't be Ready"],
    ['probe named KruisePodReady', probe0((p) => { p.name = 'KruisePodReady'; }), `${p0}.name`, "probe name can't be KruisePodReady"],
    ['probe name with #', probe0((p) => { p.name = 'a#b'; }), `${p0}.name`, "probe name can't contains '#'."],
    ['probe without name', probe0((p) => { p.name = ''; }), `${p0}.name`, "probe name can't be empty in PodProbeMarker."],
    ['probe without container', probe0((p) => { p.containerName = ''; }), `${p0}.containerName`, "probe containerName can't be empty in PodProbeMarker."],
    ['duplicate probe names', edit(idle(), (s) => { s.probes.push({ ...s.probes[0], podConditionType: 'game.io/other' }); }), 'spec.probes[1].name', 'probe name must be unique in PodProbeMarker.'],
    ['duplicate condition types', edit(idle(), (s) => { s.probes.push({ ...s.probes[0], name: 'busy' }); }), 'spec.probes[1].podConditionType', 'podConditionType game.io/idle must be unique in podProbeMarker'],
    ['bad condition type', probe0((p) => { p.podConditionType = 'game.io/idle now'; }), `${p0}.podConditionType`, 'name part must consist of alphanumeric characters'],
    ['neither condition nor markers', probe0((p) => { delete p.podConditionType; delete p.markerPolicy; }), p0, 'podConditionType and markerPolicy cannot be empty at the same time'],
    ['no handler', probe0((p) => { p.probe = { periodSeconds: 1 }; }), `${p0}.probe`, 'must specify a handler type'],
    ['two handlers', probe0((p) => { p.probe.tcpSocket = { port: 80 }; }), `${p0}.probe.tcpSocket`, 'may not specify more than 1 handler type'],
    ['exec without command', probe0((p) => { p.probe.exec = {}; }), `${p0}.probe.exec.command`, 'Required value'],
    ['tcpSocket port out of range', probe0((p) => { p.probe = { tcpSocket: { port: 70000 } }; }), `${p0}.probe.tcpSocket.port`, 'must be between 1 and 65535, inclusive'],
    ['tcpSocket bad port name', probe0((p) => { p.probe = { tcpSocket: { port: 'HTTP_PORT' } }; }), `${p0}.probe.tcpSocket.port`, 'must contain only alpha-numeric characters'],
    ['tcpSocket with a host', probe0((p) => { p.probe = { tcpSocket: { port: 80, host: 'db' } }; }), `${p0}.probe.tcpSocket.host`, 'Forbidden'],
    ['negative period', probe0((p) => { p.probe.periodSeconds = -1; }), `${p0}.probe.periodSeconds`, 'must be greater than or equal to 0'],
    ['duplicate marker states', probe0((p) => { p.markerPolicy[1].state = 'Succeeded'; }), `${p0}.markerPolicy[1].state`, 'marker policy state must be unique.'],
    ['unknown marker state', probe0((p) => { p.markerPolicy[0].state = 'Unknown'; }), `${p0}.markerPolicy[0].state`, "marker policy state must be 'Succeeded' or 'Failed'"],
    ['marker without metadata', probe0((p) => { p.markerPolicy[0] = { state: 'Succeeded' }; }), `${p0}.markerPolicy[0]`, "marker policy annotations or labels can't be both empty"],
    ['marker with a bad label value', probe0((p) => { p.markerPolicy[0].labels = { idle: 'not ok' }; }), `${p0}.markerPolicy[0].labels`, 'a valid label must be'],
    ['empty selector', edit(idle(), (s) => { s.selector = {}; }), 'spec.selector', 'empty selector is not valid for podProbeMarker.'],
    ['no probes', edit(idle(), (s) => { s.probes = []; }), 'spec.probes', 'empty probes is not valid for PodProbeMarker.'],
  ];
  for (const [name, obj, path, fragment] of invalid) {
    test(`rejects: ${name}`, async () => assertHasError(await validate(obj), path, fragment));
  }

  test('rejects the schema fixture without a selector', async () => {
    const errs = await validate(fromYaml(invalidExamples.find((e) => e.name === 'PodProbeMarker without selector')!.yaml));
    assertHasError(errs, 'spec.selector', 'empty Selector is not valid for PodProbeMarker.');
  });

  test('accepts the spec and scenario manifests', async () => {
    assertNoErrors(await validate(idle()));
    assertNoErrors(await validate(web()));
  });

  test('the selector is immutable; probes may change', async () => {
    const moved = edit(idle(), (s) => { s.selector = { matchLabels: { app: 'other' } }; });
    assertHasError(await validate(moved, { oldObject: idle() }), 'spec.selector', 'selector must be immutable');
    assertNoErrors(await validate(probe0((p) => { p.probe.periodSeconds = 5; }), { oldObject: idle() }));
  });

  for (const gate of ['PodProbeMarkerGate', 'KruiseDaemon']) {
    test(`refuses with 403 while ${gate} is off`, async () => {
      const denied = await denial(() => validate(idle(), { gates: { [gate]: false } }));
      assert.deepEqual([denied.code, denied.message], [403, `feature-gate ${gate} is not enabled`]);
    });
  }

  test('validating only, 400 on field errors', () => {
    assert.equal(hooks.default, undefined);
    assert.equal(hooks.invalidCode, 400);
  });
});
