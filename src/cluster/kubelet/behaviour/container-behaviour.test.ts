/**
 * What a container does once the command, the behaviour file's rules and the annotations are
 * combined (§9, §10), table-driven: precedence, the fallback for unreadable commands, readiness.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkNodeBehaviour, type NodeBehaviour } from './behaviour-file.js';
import { BehaviourResolver } from './container-behaviour.js';
import type { ContainerRole } from '../simulate-annotations.js';
import type { Container, Pod } from '../../../api/core/index.js';

const file = (rest: Partial<NodeBehaviour>): NodeBehaviour => checkNodeBehaviour({ apiVersion: 'kruise-ts.io/v1alpha1', kind: 'NodeBehaviour', ...rest }, 'test');

interface Case {
  name: string;
  container?: Partial<Container>;
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  role?: ContainerRole;
  annotations?: Record<string, string>;
  labels?: Record<string, string>;
  owner?: string;
  behaviour?: Partial<NodeBehaviour>;
  expect: string;
}

function outcome(c: Case): string {
  const container = { name: 'app', image: 'example.com/app:1', ...c.container } as Container;
  const pod = {
    metadata: { name: 'p', namespace: 'ns', annotations: c.annotations, labels: c.labels, ownerReferences: c.owner ? [{ apiVersion: 'v1', kind: c.owner, name: 'o', uid: 'u' }] : undefined },
    spec: { restartPolicy: c.restartPolicy, containers: [container] },
  } as Pod;
  const r = new BehaviourResolver(c.behaviour && file(c.behaviour)).container(pod, container, c.role ?? 'main');
  if ('error' in r) return `error: ${r.error}`;
  const { process: p, startDelayMs, terminationMs } = r.behaviour;
  const extra = [startDelayMs !== undefined && `start ${startDelayMs}`, terminationMs !== undefined && `term ${terminationMs}`].filter(Boolean).join(' ');
  return (p.ends === 'never' ? 'runs' : `exits ${p.exitCode} after ${p.afterMs}`) + (extra ? ` (${extra})` : '');
}

const slowJobs = { rules: [{ name: 'jobs', select: { ownerKinds: ['Job'] }, set: { runSeconds: 30 } }] };

const cases: Case[] = [
  { name: 'the command decides', container: { command: ['sleep', '2'] }, expect: 'exits 0 after 2000' },
  { name: 'unknown command, restartPolicy Always: a server', container: { command: ['/srv'] }, expect: 'runs' },
  { name: 'unknown command, restartPolicy Never: completes after 1 s', container: { command: ['/job'] }, restartPolicy: 'Never', expect: 'exits 0 after 1000' },
  { name: 'unknown command, OnFailure', container: { command: ['/job'] }, restartPolicy: 'OnFailure', expect: 'exits 0 after 1000' },
  { name: 'unknown image without command runs even in a Job', restartPolicy: 'Never', expect: 'runs' },
  { name: 'unknown image as an init container completes', role: 'init', expect: 'exits 0 after 1000' },
  { name: 'unknown command in a native sidecar runs', container: { command: ['/proxy'] }, restartPolicy: 'Never', role: 'sidecar', expect: 'runs' },
  { name: 'the fallback is configurable', container: { command: ['/job'] }, restartPolicy: 'Never', behaviour: { unknownCommands: { otherwise: 'complete', runSeconds: 5 } }, expect: 'exits 0 after 5000' },
  { name: 'servers may complete too', container: { command: ['/srv'] }, behaviour: { unknownCommands: { restartPolicyAlways: 'complete' } }, expect: 'exits 0 after 1000' },
  { name: 'a rule selects by owner kind', owner: 'Job', behaviour: slowJobs, expect: 'exits 0 after 30000' },
  { name: 'a rule that does not select', owner: 'ReplicaSet', behaviour: slowJobs, expect: 'runs' },
  {
    name: 'later rules win field by field', labels: { app: 'web' },
    behaviour: { rules: [{ name: 'a', set: { runSeconds: 1, exitCode: 2 } }, { name: 'b', select: { podSelector: 'app=web' }, set: { exitCode: 3 } }] },
    expect: 'exits 3 after 1000',
  },
  { name: 'a rule by image glob and container name', behaviour: { rules: [{ name: 'g', select: { images: ['*.com/app:*'], containerNames: ['a*'] }, set: { startDelaySeconds: 2, terminationSeconds: 4 } }] }, expect: 'runs (start 2000 term 4000)' },
  { name: 'a rule by namespace', behaviour: { rules: [{ name: 'n', select: { namespaces: ['other'] }, set: { runSeconds: 1 } }] }, expect: 'runs' },
  { name: 'an exit code alone keeps the command\'s time', container: { command: ['sleep', '2'] }, annotations: { 'kruise-ts.io/simulate-exit-code': '4' }, expect: 'exits 4 after 2000' },
  { name: 'an exit code alone on a server exits at once', annotations: { 'kruise-ts.io/simulate-exit-code': '1' }, expect: 'exits 1 after 0' },
  { name: 'run seconds alone keeps the command\'s code', container: { command: ['sh', '-c', 'exit 5'] }, annotations: { 'kruise-ts.io/simulate-run-seconds': '3' }, expect: 'exits 5 after 3000' },
  { name: 'run seconds infinity', container: { command: ['true'] }, annotations: { 'kruise-ts.io/simulate-run-seconds': 'infinity' }, expect: 'runs' },
  { name: 'annotations win over rules', owner: 'Job', behaviour: slowJobs, annotations: { 'kruise-ts.io/simulate-run-seconds': '2' }, expect: 'exits 0 after 2000' },
  {
    name: 'the per-container annotation wins over the pod-wide one',
    annotations: { 'kruise-ts.io/simulate-run-seconds': '2', 'kruise-ts.io/simulate-run-seconds.app': '7', 'kruise-ts.io/simulate-run-seconds.other': 'x' },
    expect: 'exits 0 after 7000',
  },
  { name: 'a negative duration is a config error', annotations: { 'kruise-ts.io/simulate-run-seconds': '-5' }, expect: 'error: invalid annotation kruise-ts.io/simulate-run-seconds: "-5" must be a non-negative number of seconds' },
  { name: 'a non-number is a config error', annotations: { 'kruise-ts.io/simulate-termination-seconds.app': 'soon' }, expect: 'error: invalid annotation kruise-ts.io/simulate-termination-seconds.app: "soon" must be a non-negative number of seconds' },
  { name: 'an exit code out of range', annotations: { 'kruise-ts.io/simulate-exit-code': '256' }, expect: 'error: invalid annotation kruise-ts.io/simulate-exit-code: "256" must be an integer from 0 to 255' },
  { name: 'start delay by annotation', annotations: { 'kruise-ts.io/simulate-start-delay-seconds': '1.5' }, expect: 'runs (start 1500)' },
];

for (const c of cases) test(`behaviour: ${c.name}`, () => assert.equal(outcome(c), c.expect));

test('readiness: delay and flaps from rules, the delay overridden by annotation', () => {
  const resolver = new BehaviourResolver(file({ rules: [{ name: 'r', set: { readinessDelaySeconds: 3, readinessFlaps: { readySeconds: 10, unreadySeconds: 2 } } }] }));
  const container = { name: 'app', image: 'nginx' } as Container;
  const pod = (annotations?: Record<string, string>) => ({ metadata: { name: 'p', annotations }, spec: { containers: [container] } }) as Pod;
  assert.deepEqual(resolver.readiness(pod(), container), { delayMs: 3000, flaps: { readyMs: 10_000, unreadyMs: 2000 } });
  assert.equal(resolver.readiness(pod({ 'kruise-ts.io/simulate-readiness-delay-seconds': '1' }), container).delayMs, 1000);
});
