/** The workloads table: rollout progress per Kruise and built-in workload, and the optional actions. */
import { useState } from 'preact/hooks';
import type { PodRow, WorkloadRow } from '../summaries.js';

export interface WorkloadPods { inPlace: number; recreated: number; pods: PodRow[] }

/** `ns/Kind/name` of the controllers owning a workload's pods (a Deployment's: its ReplicaSets). */
export function ownersOf(w: WorkloadRow): string[] {
  return w.podOwners ? w.podOwners.map((o) => `${w.ns}/${o}`) : [`${w.ns}/${w.kind.replace(/^Advanced/, '')}/${w.name}`];
}

/**
 * Pods of a workload at its update revision, split into updated in place and created anew. A
 * Deployment never updates in place: its pods at the newest ReplicaSet were created by the rollout
 * (none at revision 1, where nothing was replaced).
 */
export function podsOf(w: WorkloadRow, byOwner: Map<string, PodRow[]>): WorkloadPods {
  const pods = ownersOf(w).flatMap((o) => byOwner.get(o) ?? []).sort((a, b) => a.name.localeCompare(b.name));
  if (w.podRevision !== undefined) {
    const replaced = w.updateRevision === '1' ? 0 : pods.filter((p) => p.revision === w.podRevision && !p.deleting).length;
    return { inPlace: 0, recreated: replaced, pods };
  }
  const atUpdate = w.updateRevision ? pods.filter((p) => w.updateRevision.endsWith(p.revision) && p.revision) : [];
  const inPlace = atUpdate.filter((p) => p.inPlace).length;
  return { inPlace, recreated: atUpdate.length - inPlace, pods };
}

type Act = (w: WorkloadRow, action: 'pause' | 'resume' | 'partition', partition?: string) => void;

/** Pause/Resume, and a partition field with its Set button (only kinds that have the knob). */
function Actions({ w, onAction }: { w: WorkloadRow; onAction: Act }) {
  const [partition, setPartition] = useState<string | undefined>();
  const pausable = w.kind !== 'StatefulSet' && w.kind !== 'DaemonSet';
  const partitioned = w.kind !== 'Deployment' && w.kind !== 'DaemonSet';
  return (
    <td class="actions" onClick={(e) => e.stopPropagation()}>
      {pausable && <button data-action="pause" onClick={() => onAction(w, w.paused ? 'resume' : 'pause')}>{w.paused ? 'Resume' : 'Pause'}</button>}
      {partitioned && (
        <form onSubmit={(e) => { e.preventDefault(); onAction(w, 'partition', partition ?? w.partition ?? '0'); setPartition(undefined); }}>
          <input data-action="partition" size={4} value={partition ?? w.partition} placeholder="0" onInput={(e) => setPartition((e.target as HTMLInputElement).value)} />
          <button data-action="set-partition" type="submit">Set</button>
        </form>
      )}
    </td>
  );
}

function Progress({ w }: { w: WorkloadRow }) {
  const total = Math.max(w.replicas, 1);
  const done = w.replicas > 0 && w.updated >= w.replicas && w.ready >= w.replicas && w.observed;
  return (
    <div class="progress" title={`${w.updated} updated, ${w.ready} ready of ${w.replicas}`}>
      <div class="bar updated" style={{ width: `${(100 * Math.min(w.updated, total)) / total}%` }} />
      <div class="bar ready" style={{ width: `${(100 * Math.min(w.ready, total)) / total}%` }} />
      <span class="progress-label" data-testid="progress">{done ? 'complete' : w.paused ? 'paused' : `${w.updated}/${w.replicas} updated`}</span>
    </div>
  );
}

const short = (rev: string) => rev.replace(/^.*-/, '');

export function WorkloadTable(props: {
  workloads: WorkloadRow[]; byOwner: Map<string, PodRow[]>; selected?: string; actions: boolean;
  onSelect(key: string): void; onAction: Act;
}) {
  if (props.workloads.length === 0) return <p class="empty">No workloads in this view.</p>;
  return (
    <table class="workloads">
      <thead><tr><th>Workload</th><th>Rollout</th><th>Ready</th><th>Updated</th><th>Partition</th><th>In place / recreated</th><th>Revision (current → update)</th>{props.actions && <th>Actions</th>}</tr></thead>
      <tbody>
        {props.workloads.map((w) => {
          const key = `${w.kind}/${w.ns}/${w.name}`;
          const { inPlace, recreated } = podsOf(w, props.byOwner);
          const rolling = w.currentRevision && w.updateRevision && w.currentRevision !== w.updateRevision;
          return (
            <tr key={key} data-workload={key} class={key === props.selected ? 'selected' : ''} onClick={() => props.onSelect(key)}>
              <td><span class={`kind kind-${w.kind}`}>{w.kind}</span> <b>{w.name}</b> <span class="ns">{w.ns}</span><div class="strategy">{w.strategy}{w.paused ? ' · paused' : ''}</div></td>
              <td><Progress w={w} /></td>
              <td data-testid="ready">{w.ready}/{w.replicas}</td>
              <td data-testid="updated">{w.updated}</td>
              <td data-testid="partition">{w.partition || '–'}</td>
              <td data-testid="inplace">{inPlace} / {recreated}</td>
              <td class="rev" data-testid="revision">{short(w.currentRevision) || '–'}{rolling ? <> → <b>{short(w.updateRevision)}</b></> : null}</td>
              {props.actions && <Actions w={w} onAction={props.onAction} />}
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
