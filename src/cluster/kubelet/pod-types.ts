/**
 * The slice of core/v1 Pod and Node the simulated kubelet reads and writes, as plain JSON shapes
 * (timestamps are RFC 3339 strings). Everything else in the objects is carried along untouched.
 */
import type { KObject } from '../../api/meta.js';

export interface Probe {
  initialDelaySeconds?: number;
  periodSeconds?: number;
}

export interface ContainerSpec {
  name: string;
  image: string;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  /** On init containers, `Always` makes a native sidecar. */
  restartPolicy?: 'Always';
  readinessProbe?: Probe;
  startupProbe?: Probe;
  ports?: unknown[];
  lifecycle?: { preStop?: unknown };
  [field: string]: unknown;
}

export interface PodSpec {
  nodeName?: string;
  containers: ContainerSpec[];
  initContainers?: ContainerSpec[];
  restartPolicy?: 'Always' | 'OnFailure' | 'Never';
  terminationGracePeriodSeconds?: number;
  readinessGates?: { conditionType: string }[];
  hostNetwork?: boolean;
  hostname?: string;
  [field: string]: unknown;
}

export interface PodCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastProbeTime?: string | null;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
  observedGeneration?: number;
}

export interface ContainerStateWaiting { reason?: string; message?: string }
export interface ContainerStateRunning { startedAt?: string }
export interface ContainerStateTerminated {
  exitCode: number;
  signal?: number;
  reason?: string;
  message?: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  containerID?: string;
}

export interface ContainerState {
  waiting?: ContainerStateWaiting;
  running?: ContainerStateRunning;
  terminated?: ContainerStateTerminated;
}

export interface PodContainerStatus {
  name: string;
  state: ContainerState;
  lastState: ContainerState;
  ready: boolean;
  restartCount: number;
  image: string;
  imageID: string;
  containerID?: string;
  started?: boolean;
}

export type PodPhase = 'Pending' | 'Running' | 'Succeeded' | 'Failed' | 'Unknown';

export interface PodStatus {
  phase?: PodPhase;
  conditions?: PodCondition[];
  message?: string;
  reason?: string;
  hostIP?: string;
  hostIPs?: { ip: string }[];
  podIP?: string;
  podIPs?: { ip: string }[];
  startTime?: string;
  initContainerStatuses?: PodContainerStatus[];
  containerStatuses?: PodContainerStatus[];
  qosClass?: string;
  [field: string]: unknown;
}

export interface Pod extends KObject {
  spec: PodSpec;
  status?: PodStatus;
}

export interface NodeCondition {
  type: string;
  status: 'True' | 'False' | 'Unknown';
  lastHeartbeatTime?: string;
  lastTransitionTime?: string;
  reason?: string;
  message?: string;
}

export interface Node extends KObject {
  spec?: { podCIDR?: string; podCIDRs?: string[]; unschedulable?: boolean; [field: string]: unknown };
  status?: {
    capacity?: Record<string, string>;
    allocatable?: Record<string, string>;
    conditions?: NodeCondition[];
    addresses?: { type: string; address: string }[];
    nodeInfo?: Record<string, string>;
    [field: string]: unknown;
  };
}

/** RFC 3339 with second precision, as metav1.Time serialises. */
export function rfc3339(ms: number): string {
  return new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

