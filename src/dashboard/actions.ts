/**
 * The few writes the dashboard offers when started with actions on: pause or resume a rollout and
 * set its partition (docs/design/dashboard.md §6). Each needs `patch` on the workload for the signed-in
 * user (SubjectAccessReview), then goes out as a merge patch on the field the kind keeps it in.
 */
import type { ResourceType } from '../api/resource-type.js';
import { DaemonSets, Deployments, StatefulSets } from '../api/resource-type.js';
import { AdvancedDaemonSets, AdvancedStatefulSets, CloneSets } from '../api/kruise/resource-types.js';
import type { Client } from '../client/client.js';
import { StatusError } from '../machinery/errors.js';
import type { DashboardAuth, DashboardUser } from './auth.js';

export interface ActionRequest { kind?: string; ns?: string; name?: string; action?: 'pause' | 'resume' | 'partition'; partition?: number | string }

/** Where each kind keeps `paused` and `partition` (absent: the kind has no such knob). */
const knobs: Record<string, { type: ResourceType; paused?: (v: boolean) => object; partition?: (v: number | string) => object }> = {
  // CloneSets is v1beta1 (the storage version), where both moved under rollingUpdate.
  CloneSet: {
    type: CloneSets, paused: (v) => ({ spec: { updateStrategy: { rollingUpdate: { paused: v } } } }), partition: (v) => ({ spec: { updateStrategy: { rollingUpdate: { partition: v } } } }),
  },
  AdvancedStatefulSet: {
    type: AdvancedStatefulSets, paused: (v) => ({ spec: { updateStrategy: { rollingUpdate: { paused: v } } } }), partition: (v) => ({ spec: { updateStrategy: { rollingUpdate: { partition: v } } } }),
  },
  AdvancedDaemonSet: {
    type: AdvancedDaemonSets, paused: (v) => ({ spec: { updateStrategy: { rollingUpdate: { paused: v } } } }), partition: (v) => ({ spec: { updateStrategy: { rollingUpdate: { partition: v } } } }),
  },
  Deployment: { type: Deployments, paused: (v) => ({ spec: { paused: v } }) },
  StatefulSet: { type: StatefulSets, partition: (v) => ({ spec: { updateStrategy: { rollingUpdate: { partition: v } } } }) },
  DaemonSet: { type: DaemonSets },
};

export async function runAction(client: Client, auth: DashboardAuth, user: DashboardUser, a: ActionRequest): Promise<{ code: number; message: string }> {
  const knob = knobs[a.kind ?? ''];
  if (!knob || !a.ns || !a.name) return { code: 400, message: `unknown workload ${a.kind}/${a.ns}/${a.name}` };
  const patch = a.action === 'pause' || a.action === 'resume' ? knob.paused?.(a.action === 'pause')
    : a.action === 'partition' ? knob.partition?.(partitionValue(a.partition)) : undefined;
  if (!patch) return { code: 400, message: `${a.kind} has no ${a.action ?? 'such'} action` };
  if (!(await auth.allowed(user, 'patch', knob.type, a.ns, a.name))) return { code: 403, message: `${user.username} may not patch ${knob.type.resource} ${a.ns}/${a.name}` };
  try {
    await client.patch(knob.type, a.ns, a.name, 'merge', patch);
    return { code: 200, message: `${a.kind} ${a.ns}/${a.name}: ${a.action} done` };
  } catch (e) {
    return e instanceof StatusError ? { code: e.code, message: e.message } : { code: 500, message: String(e) };
  }
}

/** A partition is a count, or a percentage as "30%". */
function partitionValue(v: number | string | undefined): number | string {
  if (typeof v === 'string' && /^\d+%$/.test(v)) return v;
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : 0;
}
