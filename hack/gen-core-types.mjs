#!/usr/bin/env node
// Writes src/api/core/generated/types.gen.ts: plain-JSON interfaces of the built-in kinds the code
// uses, derived from @kubernetes/client-node's generated models (the upstream OpenAPI), with
// timestamps as RFC 3339 strings and int-or-string as `number | string`, so an object has one shape
// on the wire, in storage and in memory. `--check` exits 1 when the file differs from what it would write.
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const models = require('@kubernetes/client-node/dist/gen/models/all.js');
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'src/api/core/generated/types.gen.ts');

/** The kinds the code reads and writes; their field types are pulled in transitively. */
const roots = [
  'V1Pod', 'V1PodTemplateSpec', 'V1Node', 'V1Namespace', 'V1Service', 'V1ConfigMap', 'V1Secret', 'CoreV1Event',
  'V1PersistentVolumeClaim', 'V1PersistentVolume', 'V1StorageClass', 'V1ServiceAccount', 'V1Endpoints',
  'V1ReplicaSet', 'V1Deployment', 'V1StatefulSet', 'V1DaemonSet', 'V1ControllerRevision',
  'V1Job', 'V1CronJob', 'V1Lease', 'V1PodDisruptionBudget', 'V1Binding', 'V1Eviction', 'V1Scale',
];
/** Types this package declares by hand in api/meta.ts. */
const external = { V1ObjectMeta: 'ObjectMeta', V1OwnerReference: 'OwnerReference', V1ManagedFieldsEntry: 'ManagedFieldsEntry', V1ListMeta: 'ListMeta' };
/** Fields every stored object of the kind has (the API server rejects objects without them). */
const requiredOnStored = {
  V1Pod: ['spec'], V1PersistentVolumeClaim: ['spec'], V1ReplicaSet: ['spec'], V1Deployment: ['spec'],
  V1StatefulSet: ['spec'], V1DaemonSet: ['spec'], V1Job: ['spec'], V1CronJob: ['spec'], V1PodDisruptionBudget: ['spec'],
};
/** Enumerations the upstream models type as plain strings. */
const conditionStatus = "'True' | 'False' | 'Unknown'";
const enums = {
  'V1PodStatus.phase': "'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown'",
  'V1PodSpec.restartPolicy': "'Always' | 'OnFailure' | 'Never'",
  'V1Container.restartPolicy': "'Always'",
  'V1Container.imagePullPolicy': "'Always' | 'IfNotPresent' | 'Never'",
  'V1Taint.effect': "'NoSchedule' | 'PreferNoSchedule' | 'NoExecute'",
  'V1Toleration.effect': "'NoSchedule' | 'PreferNoSchedule' | 'NoExecute' | ''",
  'V1Toleration.operator': "'Exists' | 'Equal'",
  'V1NodeSelectorRequirement.operator': "'In' | 'NotIn' | 'Exists' | 'DoesNotExist' | 'Gt' | 'Lt'",
  'V1LabelSelectorRequirement.operator': "'In' | 'NotIn' | 'Exists' | 'DoesNotExist'",
  'V1TopologySpreadConstraint.whenUnsatisfiable': "'DoNotSchedule' | 'ScheduleAnyway'",
  'V1TopologySpreadConstraint.nodeAffinityPolicy': "'Honor' | 'Ignore'",
  'V1TopologySpreadConstraint.nodeTaintsPolicy': "'Honor' | 'Ignore'",
  'V1DeploymentStrategy.type': "'RollingUpdate' | 'Recreate'",
  'V1StatefulSetUpdateStrategy.type': "'RollingUpdate' | 'OnDelete'",
  'V1DaemonSetUpdateStrategy.type': "'RollingUpdate' | 'OnDelete'",
  'V1StatefulSetSpec.podManagementPolicy': "'OrderedReady' | 'Parallel'",
  'V1JobSpec.completionMode': "'NonIndexed' | 'Indexed'",
  'V1CronJobSpec.concurrencyPolicy': "'Allow' | 'Forbid' | 'Replace'",
  'V1PodFailurePolicyRule.action': "'FailJob' | 'FailIndex' | 'Ignore' | 'Count'",
  'V1PodFailurePolicyOnExitCodesRequirement.operator': "'In' | 'NotIn'",
  // zero metav1.Time values (not pointers upstream) are written as null
  'V1PodCondition.lastProbeTime': 'string | null',
  'V1ContainerStateTerminated.startedAt': 'string | null',
  'V1ContainerStateTerminated.finishedAt': 'string | null',
};
/** Class name -> exported name, where dropping the version prefix would clash or mislead. */
const renames = { CoreV1Event: 'Event', CoreV1EventSeries: 'EventSeries', CoreV1EndpointPort: 'EndpointPort' };

const nameOf = (cls) => external[cls] ?? renames[cls] ?? cls.replace(/^(Core)?V\d+(alpha\d+|beta\d+)?/, '');

function docOf(cls) {
  const fields = new Map();
  let description;
  try {
    const js = require.resolve(`@kubernetes/client-node/dist/gen/models/${cls}.js`);
    const src = readFileSync(js.replace(/\.js$/, '.d.ts'), 'utf8');
    const classAt = src.indexOf('export declare class');
    const c = /\/\*\*([\s\S]*?)\*\/\s*$/.exec(src.slice(0, classAt));
    if (c) description = clean(c[1]);
    const prop = /(?:\/\*\*\n((?:(?!\*\/)[\s\S])*?)\*\/\s*\n)?\s*'([^']+)'(\?)?:/g;
    for (let m = prop.exec(src); m; m = prop.exec(src)) fields.set(m[2], { description: m[1] ? clean(m[1]) : undefined, required: m[3] !== '?' });
  } catch { /* no declaration: fields stay optional and undocumented */ }
  return { description, fields };
}

/** The first sentence of a doc comment; the models' boilerplate class comment gives nothing. */
function clean(body) {
  const text = body.split('\n').map((l) => l.replace(/^\s*\*\s?/, '').trimEnd()).join(' ').replace(/\s+/g, ' ').trim().replace(/\\(['"])/g, '$1');
  if (/No description provided/.test(text)) return undefined;
  const sentence = /^(.*?[.!?])(\s|$)/.exec(text)?.[1] ?? text;
  return sentence.replace(/\*\//g, '*\\/');
}

function tsType(type, pending) {
  let m;
  if ((m = /^Array<(.+)>$/.exec(type))) { const inner = tsType(m[1], pending); return /[ |]/.test(inner) ? `(${inner})[]` : `${inner}[]`; }
  if ((m = /^\{ \[key: string\]: (.+); \}$/.exec(type))) return `Record<string, ${tsType(m[1], pending)}>`;
  switch (type) {
    case 'string': case 'number': case 'boolean': return type;
    case 'Date': case 'V1MicroTime': return 'string';
    case 'IntOrString': return 'number | string';
    case 'any': return 'unknown';
    case 'object': return 'Record<string, unknown>';
  }
  if (typeof models[type]?.getAttributeTypeMap !== 'function') throw new Error(`unknown model type ${type}`);
  pending.push(type);
  return nameOf(type);
}

function render() {
  const pending = [...roots];
  const done = new Set();
  const blocks = [];
  while (pending.length) {
    const cls = pending.shift();
    if (done.has(cls) || external[cls]) continue;
    done.add(cls);
    const attrs = models[cls].getAttributeTypeMap();
    const doc = docOf(cls);
    const isKind = attrs.some((a) => a.baseName === 'metadata' && a.type === 'V1ObjectMeta') && attrs.some((a) => a.baseName === 'kind');
    const lines = [];
    if (doc.description) lines.push(`/** ${doc.description} */`);
    lines.push(`export interface ${nameOf(cls)}${isKind ? ' extends KObject' : ''} {`);
    for (const a of attrs) {
      const f = doc.fields.get(a.name);
      const required = (isKind && a.baseName === 'metadata') || f?.required || requiredOnStored[cls]?.includes(a.baseName);
      const type = tsType(a.type, pending);
      const t = enums[`${cls}.${a.baseName}`] ?? (a.baseName === 'status' && /Condition$/.test(cls) ? conditionStatus : type);
      if (f?.description) lines.push(`  /** ${f.description} */`);
      lines.push(`  ${/^[A-Za-z_$][\w$]*$/.test(a.baseName) ? a.baseName : `'${a.baseName}'`}${required ? '' : '?'}: ${t};`);
    }
    lines.push('}');
    blocks.push({ name: nameOf(cls), text: lines.join('\n') });
  }
  blocks.sort((a, b) => a.name.localeCompare(b.name));
  const names = blocks.map((b) => b.name);
  const dup = names.find((n, i) => names.indexOf(n) !== i);
  if (dup) throw new Error(`two model classes map to ${dup}: add a rename`);
  return [
    '// Code generated by hack/gen-core-types.mjs from @kubernetes/client-node models. DO NOT EDIT.',
    "import type { KObject, ObjectMeta, OwnerReference, ManagedFieldsEntry, ListMeta } from '../../meta.js';",
    '',
    'export type { ObjectMeta, OwnerReference, ManagedFieldsEntry, ListMeta };',
    '',
    blocks.map((b) => b.text).join('\n\n'),
    '',
  ].join('\n');
}

const text = render();
if (process.argv.includes('--check')) {
  let current = '';
  try { current = readFileSync(OUT, 'utf8'); } catch { /* missing counts as drift */ }
  if (current !== text) {
    console.error(`${path.relative(ROOT, OUT)} is out of date: run node hack/gen-core-types.mjs`);
    process.exit(1);
  }
} else {
  writeFileSync(OUT, text);
  console.log(`wrote ${path.relative(ROOT, OUT)} (${text.split('\n').length} lines)`);
}
