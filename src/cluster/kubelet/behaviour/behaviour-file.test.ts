/** The node behaviour file (§10): the documented example parses; every bad file names its rule and field. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parseNodeBehaviour } from './behaviour-file.js';

const head = 'apiVersion: kruise-ts.io/v1alpha1\nkind: NodeBehaviour\n';
const exampleUrl = new URL('../../../../docs/design/node-behaviour.example.yaml', import.meta.url);

test('the documented example is valid', () => {
  const file = parseNodeBehaviour(readFileSync(fileURLToPath(exampleUrl), 'utf8'), 'example');
  assert.deepEqual(file.rules?.map((r) => r.name), ['slow-starts', 'batch-jobs-take-a-minute', 'flaky-frontend']);
  assert.equal(file.images?.length, 4);
});

const bad: [string, string, RegExp][] = [
  ['not YAML', 'rules: [\n', /not valid YAML/],
  ['no kind', 'apiVersion: kruise-ts.io/v1alpha1\n', /kind: Expected required property/],
  ['an unknown top-level field', `${head}rulez: []\n`, /rulez: unknown field/],
  ['a negative duration', `${head}rules:\n  - name: slow\n    set: { runSeconds: -3 }\n`, /rules\[0\] \(name "slow"\): set\.runSeconds: must be a non-negative number of seconds or "infinity" \(got -3\)/],
  ['a duration that is not a number', `${head}rules:\n  - name: a\n  - name: b\n    set: { startDelaySeconds: soon }\n`, /rules\[1\] \(name "b"\): set\.startDelaySeconds: must be time from StartContainer to running \(got "soon"\)/],
  ['a misspelt field', `${head}rules:\n  - name: typo\n    set: { runSecond: 3 }\n`, /rules\[0\] \(name "typo"\): set\.runSecond: unknown field/],
  ['an exit code out of range', `${head}rules:\n  - name: x\n    set: { exitCode: 300 }\n`, /rules\[0\] \(name "x"\): set\.exitCode: must be an integer from 0 to 255/],
  ['a rule without a name', `${head}rules:\n  - set: {}\n`, /rules\[0\] \(name ""\): name: Expected required property/],
  ['a bad label selector', `${head}rules:\n  - name: sel\n    select: { podSelector: "app in (web" }\n    set: {}\n`, /rules\[0\] \(name "sel"\): select\.podSelector: /],
  ['two rules of one name', `${head}rules:\n  - { name: r, set: {} }\n  - { name: r, set: {} }\n`, /rules\[1\] \(name "r"\): name: a rule of this name comes earlier/],
  ['flaps of zero seconds', `${head}rules:\n  - name: f\n    set: { readinessFlaps: { readySeconds: 0, unreadySeconds: 1 } }\n`, /rules\[0\] \(name "f"\): set\.readinessFlaps\.readySeconds/],
  ['a malformed digest', `${head}images:\n  - { image: app:1, digest: "sha256:xyz" }\n`, /images\[0\] \(image "app:1"\): digest: must be sha256: and 64 hex digits/],
  ['a digest on a glob', `${head}images:\n  - { image: "app:*", sameDigestAs: app:1 }\n`, /images\[0\] \(image "app:\*"\): image: a digest belongs to one tag/],
  ['aliases in a loop', `${head}images:\n  - { image: a:1, sameDigestAs: a:2 }\n  - { image: a:2, sameDigestAs: a:1 }\n`, /images\[0\] \(image "a:1"\): sameDigestAs: digest aliases loop/],
];

for (const [name, text, expected] of bad) {
  test(`an invalid file: ${name}`, () => {
    assert.throws(() => parseNodeBehaviour(text, 'b.yaml'), (e: Error) => {
      assert.match(e.message, /node behaviour file b\.yaml/);
      assert.match(e.message, expected);
      return true;
    });
  });
}
