/**
 * Patch metadata of the built-in kinds we serve, transcribed from the Kubernetes API types'
 * `patchStrategy`/`patchMergeKey` tags (and `listMapKeys` where SSA keys differ). Lists not listed
 * here are atomic: tolerations, command, args, envFrom, taints, accessModes, subsets, rules ...
 */
import type { PatchSchema } from './patch-schema.js';

const mapList = (key: string, items?: PatchSchema, keys?: string[]): PatchSchema =>
  ({ list: keys ? { kind: 'map', key, keys } : { kind: 'map', key }, items });
const SET: PatchSchema = { list: { kind: 'set' } };
const BY_NAME = mapList('name');
const BY_TYPE = mapList('type');
const BY_IP = mapList('ip');

const objectMeta: PatchSchema = {
  fields: { finalizers: SET, ownerReferences: mapList('uid') },
};

const container: PatchSchema = {
  fields: {
    ports: mapList('containerPort', undefined, ['containerPort', 'protocol']),
    env: BY_NAME,
    volumeMounts: mapList('mountPath'),
    volumeDevices: mapList('devicePath'),
  },
};

const podSpec: PatchSchema = {
  fields: {
    volumes: mapList('name', { retainKeys: true }),
    initContainers: mapList('name', container),
    containers: mapList('name', container),
    ephemeralContainers: mapList('name', container),
    imagePullSecrets: BY_NAME,
    hostAliases: BY_IP,
    topologySpreadConstraints: mapList('topologyKey', undefined, ['topologyKey', 'whenUnsatisfiable']),
    schedulingGates: BY_NAME,
    resourceClaims: mapList('name', { retainKeys: true }),
  },
};

const podStatus: PatchSchema = {
  fields: { conditions: BY_TYPE, podIPs: BY_IP, hostIPs: BY_IP, resourceClaimStatuses: BY_NAME },
};

const podTemplateSpec: PatchSchema = { fields: { metadata: objectMeta, spec: podSpec } };
const conditionsStatus: PatchSchema = { fields: { conditions: BY_TYPE } };

/** A kind whose spec holds a pod template at `spec.template`, plus extra spec fields. */
const withTemplate = (spec: Record<string, PatchSchema> = {}): Record<string, PatchSchema> => ({
  spec: { fields: { template: podTemplateSpec, ...spec } },
  status: conditionsStatus,
});

const webhookConfiguration: Record<string, PatchSchema> = { webhooks: BY_NAME };

/** Root fields per `group/Kind` (core group is ''). `metadata` is added to every kind. */
const KINDS: Record<string, Record<string, PatchSchema>> = {
  '/Pod': { spec: podSpec, status: podStatus },
  '/PodTemplate': { template: podTemplateSpec },
  '/ReplicationController': withTemplate(),
  'apps/Deployment': withTemplate({ strategy: { retainKeys: true } }),
  'apps/ReplicaSet': withTemplate(),
  'apps/StatefulSet': withTemplate(),
  'apps/DaemonSet': withTemplate(),
  'batch/Job': withTemplate(),
  'batch/CronJob': {
    spec: { fields: { jobTemplate: { fields: { metadata: objectMeta, spec: { fields: { template: podTemplateSpec } } } } } },
  },
  '/Service': {
    spec: { fields: { ports: mapList('port', undefined, ['port', 'protocol']) } },
    status: conditionsStatus,
  },
  '/Node': {
    spec: { fields: { podCIDRs: SET } },
    status: { fields: { conditions: BY_TYPE, addresses: BY_TYPE } },
  },
  '/Namespace': { status: conditionsStatus },
  '/PersistentVolumeClaim': { status: conditionsStatus },
  '/ServiceAccount': { secrets: BY_NAME },
  'policy/PodDisruptionBudget': { status: conditionsStatus },
  'autoscaling/HorizontalPodAutoscaler': { status: conditionsStatus },
  'admissionregistration.k8s.io/MutatingWebhookConfiguration': webhookConfiguration,
  'admissionregistration.k8s.io/ValidatingWebhookConfiguration': webhookConfiguration,
  // ConfigMap, Secret, Endpoints, EndpointSlice, Lease, Event, ControllerRevision, PV, CRD and
  // RBAC kinds have no merging lists outside metadata.
};

const cache = new Map<string, PatchSchema>();

/** The strategic-merge-patch schema of a built-in kind; unknown kinds get metadata only. */
export function builtinPatchSchema(group: string, kind: string): PatchSchema {
  const id = `${group}/${kind}`;
  let schema = cache.get(id);
  if (!schema) {
    schema = { fields: { ...KINDS[id], metadata: objectMeta } };
    cache.set(id, schema);
  }
  return schema;
}

/** Whether the table has entries beyond metadata for this kind (for tests and diagnostics). */
export const hasBuiltinPatchMeta = (group: string, kind: string): boolean => `${group}/${kind}` in KINDS;
