/**
 * kubectl-kruise's workload commands for CloneSet, Advanced StatefulSet and Advanced DaemonSet
 * (docs/design/manager.md §10, §12): `set image`, `rollout pause|resume|restart|undo|history`, `scale`
 * and `scaledown`, with kubectl's messages, so `kubectl kruise ...` reads like `kubectl ...` does
 * for a Deployment. Every write re-reads the object and retries on a conflict.
 */
import type { ControllerRevision, Container } from '../api/core/index.js';
import { ControllerRevisions } from '../api/resource-type.js';
import { templateOfRevision } from '../control/revision/index.js';
import { deepEqual } from '../machinery/deep-equal.js';
import { rfc3339 } from '../machinery/time.js';
import { emit, workloadTarget as target, type WorkloadCommandOptions, type WriteFlags } from './plugin/target.js';

export type { WorkloadCommandOptions } from './plugin/target.js';

export async function runSetImage(ref: string, pairs: string[], o: WriteFlags, print = console.log): Promise<void> {
  const t = target([ref], o);
  const images = pairs.map((p) => {
    const eq = p.indexOf('=');
    if (eq <= 0 || eq === p.length - 1) throw new Error(`expected CONTAINER=IMAGE, got "${p}"`);
    return [p.slice(0, eq), p.slice(eq + 1)] as const;
  });
  if (images.length === 0) throw new Error('at least one image update is required');
  const { object, changed } = await t.edit((w) => {
    const spec = w.spec.template.spec!;
    const [before, beforeInit] = structuredClone([spec.containers, spec.initContainers]);
    const containers: Container[] = [...(spec.initContainers ?? []), ...spec.containers];
    for (const [name, image] of images) {
      const matched = containers.filter((c) => name === '*' || c.name === name);
      if (matched.length === 0) throw new Error(`unable to find container named "${name}"`);
      for (const c of matched) c.image = image;
    }
    return !deepEqual(spec.containers, before) || !deepEqual(spec.initContainers, beforeInit);
  });
  // kubectl prints nothing (not even for -o) when every image already was the one asked for
  if (changed) emit(t.kind.type, object, 'image updated', o, print);
}

export async function runPause(ref: string[], paused: boolean, o: WorkloadCommandOptions, print = console.log): Promise<void> {
  const t = target(ref, o);
  await t.edit((w) => {
    const rollingUpdate = ((w.spec.updateStrategy ??= {}).rollingUpdate ??= {});
    if ((rollingUpdate.paused ?? false) === paused) throw new Error(`${t.kind.type.resource}.${t.kind.type.group} "${t.name}" is ${paused ? 'already' : 'not'} paused`);
    rollingUpdate.paused = paused;
    return true;
  });
  print(`${t.display} ${paused ? 'paused' : 'resumed'}`);
}

export async function runRestart(ref: string[], o: WorkloadCommandOptions, print = console.log): Promise<void> {
  const t = target(ref, o);
  await t.edit((w) => {
    (w.spec.template.metadata ??= {}).annotations = { ...w.spec.template.metadata.annotations, 'kubectl.kubernetes.io/restartedAt': rfc3339(new Date()) };
    return true;
  });
  print(`${t.display} restarted`);
}

/** The workload's revisions, oldest first. */
async function revisions(t: ReturnType<typeof target>): Promise<ControllerRevision[]> {
  const w = await t.get();
  const list = await t.client.list<ControllerRevision>(ControllerRevisions, { namespace: t.namespace });
  return list.items.filter((r) => r.metadata.ownerReferences?.some((ref) => ref.uid === w.metadata.uid))
    .sort((a, b) => (a.revision ?? 0) - (b.revision ?? 0));
}

export async function runHistory(ref: string[], o: WorkloadCommandOptions, print = console.log): Promise<void> {
  const t = target(ref, o);
  const rows = (await revisions(t)).map((r) => [String(r.revision ?? 0), r.metadata.annotations?.['kubernetes.io/change-cause'] ?? '<none>']);
  const width = Math.max('REVISION'.length, ...rows.map((r) => r[0]!.length)) + 2;
  print(`${t.display} `);
  for (const [rev, cause] of [['REVISION', 'CHANGE-CAUSE'], ...rows]) print(`${rev!.padEnd(width)}${cause}`);
  print('');
}

export async function runUndo(ref: string[], toRevision: number, o: WriteFlags, print = console.log): Promise<void> {
  const t = target(ref, o);
  const all = await revisions(t);
  const current = await t.get();
  const matches = (r: ControllerRevision) => deepEqual(templateOfRevision(r), current.spec.template);
  const chosen = toRevision > 0 ? all.find((r) => r.revision === toRevision) : [...all].reverse().find((r) => !matches(r));
  if (!chosen) throw new Error(toRevision > 0 ? `unable to find specified revision ${toRevision} in history` : 'no rollout history found');
  if (matches(chosen)) {
    print(`${t.display} skipped rollback (current template already matches revision ${chosen.revision})`);
    return;
  }
  const template = templateOfRevision(chosen);
  if (!template) throw new Error(`revision ${chosen.revision} carries no pod template`);
  const { object } = await t.edit((w) => { w.spec.template = template; return true; });
  emit(t.kind.type, object, 'rolled back', o, print);
}

export async function runScale(ref: string[], replicas: number, o: WriteFlags, print = console.log): Promise<void> {
  const t = target(ref, o);
  const { object } = await t.edit((w) => { w.spec.replicas = replicas; return true; });
  emit(t.kind.type, object, 'scaled', o, print);
}

/** kruise-tools' scaledown: fewer replicas, and exactly these pods go (CloneSet only). */
export async function runScaleDown(ref: string[], pods: string[], o: WorkloadCommandOptions, print = console.log): Promise<void> {
  const t = target(ref, o);
  if (t.kind.type.kind !== 'CloneSet') throw new Error('currently only supported CloneSet selective pods deletion');
  if (pods.length === 0) throw new Error('must specify one pod name');
  await t.edit((w) => {
    w.spec.replicas = (w.spec.replicas ?? 1) - pods.length;
    const strategy = (w.spec.scaleStrategy ??= {});
    strategy.podsToDelete = [...new Set([...(strategy.podsToDelete ?? []), ...pods])];
    return true;
  });
  print(`# ${t.name} delete pods [${pods.join(' ')}] successfully`);
  print(`${t.display} selective pod deletion`);
}
