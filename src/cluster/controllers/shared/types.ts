/**
 * The slices of core/v1 and apps/v1 objects the kube-controller-manager controllers read and write,
 * as plain JSON (timestamps are RFC 3339 strings, int-or-string is `number | string`). Fields not
 * named here ride along untouched in the index signature of KObject.
 */
import type { KObject } from '../../../api/meta.js';
import type { MetaLabelSelector } from '../../../machinery/labels.js';

export type ConditionStatus = 'True' | 'False' | 'Unknown';

export interface PodCondition {
  type: string;
  status: ConditionStatus;
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface PodTemplateSpec {
  metadata?: { labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[]; [field: string]: unknown };
  spec?: { nodeName?: string; [field: string]: unknown };
}

export interface Pod extends KObject {
  spec?: { nodeName?: string; [field: string]: unknown };
  status?: {
    phase?: 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';
    conditions?: PodCondition[];
    containerStatuses?: { name: string; restartCount?: number; ready?: boolean; [field: string]: unknown }[];
    reason?: string;
    message?: string;
    [field: string]: unknown;
  };
}

/** A ReplicaSet or Deployment condition (Deployments add lastUpdateTime). */
export interface WorkloadCondition {
  type: string;
  status: ConditionStatus;
  lastUpdateTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface ReplicaSet extends KObject {
  spec?: {
    replicas?: number;
    minReadySeconds?: number;
    selector?: MetaLabelSelector;
    template?: PodTemplateSpec;
  };
  status?: {
    replicas?: number;
    fullyLabeledReplicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    observedGeneration?: number;
    conditions?: WorkloadCondition[];
  };
}

export type IntOrString = number | string;

export interface Deployment extends KObject {
  spec?: {
    replicas?: number;
    selector?: MetaLabelSelector;
    template?: PodTemplateSpec;
    strategy?: { type?: 'RollingUpdate' | 'Recreate'; rollingUpdate?: { maxSurge?: IntOrString; maxUnavailable?: IntOrString } };
    minReadySeconds?: number;
    revisionHistoryLimit?: number;
    paused?: boolean;
    progressDeadlineSeconds?: number;
  };
  status?: DeploymentStatus;
}

export interface DeploymentStatus {
  observedGeneration?: number;
  replicas?: number;
  updatedReplicas?: number;
  readyReplicas?: number;
  availableReplicas?: number;
  unavailableReplicas?: number;
  collisionCount?: number;
  conditions?: WorkloadCondition[];
}

export interface Taint {
  key: string;
  value?: string;
  effect: 'NoSchedule' | 'PreferNoSchedule' | 'NoExecute';
  timeAdded?: string;
}

export interface NodeCondition {
  type: string;
  status: ConditionStatus;
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Node extends KObject {
  spec?: { unschedulable?: boolean; taints?: Taint[]; [field: string]: unknown };
  status?: { conditions?: NodeCondition[]; [field: string]: unknown };
}

/** metav1.Time's wire format: RFC 3339 in UTC with whole seconds. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** Milliseconds of an RFC 3339 timestamp; undefined for missing or unparsable ones (Go's zero time). */
export function timeOf(value: string | null | undefined): number | undefined {
  if (!value) return undefined;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? undefined : ms;
}

/** `<namespace>/<name>`: the key controllers and expectations use. */
export function keyOfObject(obj: KObject): string {
  return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : `${obj.metadata.name}`;
}
