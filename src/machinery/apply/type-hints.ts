/**
 * Structural type hints for server-side apply: how each list merges (atomic, set or map by keys),
 * which maps are atomic, and which fields a typed (Go) object always carries. Paths are the field
 * names from the object root with list items elided, e.g. ['spec','template','spec','containers'].
 * The path array may be reused by the caller after the call returns: copy it to keep it.
 */

export interface ListType {
  type: 'atomic' | 'set' | 'map';
  /** Key fields of a `map` list (x-kubernetes-list-map-keys / listMapKey). */
  keys?: string[];
  /** Values used for key fields an item omits (upstream takes them from the schema defaults). */
  keyDefaults?: Record<string, unknown>;
}

export interface TypeHints {
  /** Undefined means atomic, the upstream default for lists without metadata. */
  listType(path: string[]): ListType | undefined;
  /** x-kubernetes-map-type: atomic (or structType=atomic): the map is owned and replaced as a whole. */
  mapAtomic?(path: string[]): boolean;
  /**
   * True for fields an empty typed object already has (Go value structs and lists without
   * omitempty: `spec`, `status`, `spec.template`, pod `containers` ...). A non-apply write that
   * fills such a field does not own the field itself, only what it sets inside, which is why
   * upstream managedFields show `f:spec` without `.` for built-ins but with `.` for custom resources.
   */
  alwaysPresent?(path: string[]): boolean;
}

export function hintsFromFunction(
  listType: (path: string[]) => ListType | undefined,
  extra: Omit<TypeHints, 'listType'> = {},
): TypeHints {
  return { ...extra, listType };
}

const byName: ListType = { type: 'map', keys: ['name'] };
const podContainerLists = new Set(['containers', 'initContainers', 'ephemeralContainers']);

/** List types of the built-in kinds we serve, after the listType/listMapKey tags of k8s.io/api. */
const listTypes: Record<string, ListType> = {
  containers: byName,
  initContainers: byName,
  ephemeralContainers: byName,
  env: byName,
  volumes: byName,
  imagePullSecrets: byName,
  resourceClaims: byName,
  volumeMounts: { type: 'map', keys: ['mountPath'] },
  volumeDevices: { type: 'map', keys: ['devicePath'] },
  conditions: { type: 'map', keys: ['type'] },
  hostAliases: { type: 'map', keys: ['ip'] },
  topologySpreadConstraints: { type: 'map', keys: ['topologyKey', 'whenUnsatisfiable'] },
  readinessGates: { type: 'atomic' },
  volumeLifecycleModes: { type: 'set' },
};

const containerPorts: ListType = { type: 'map', keys: ['containerPort', 'protocol'], keyDefaults: { protocol: 'TCP' } };
const servicePorts: ListType = { type: 'map', keys: ['port', 'protocol'], keyDefaults: { protocol: 'TCP' } };

function defaultListType(path: string[]): ListType | undefined {
  const n = path.length;
  const last = path[n - 1];
  const parent = path[n - 2];
  if (last === 'ports') {
    if (podContainerLists.has(parent)) return containerPorts;
    if (n === 2 && parent === 'spec') return servicePorts;
    return undefined;
  }
  if (n === 2 && parent === 'metadata') {
    if (last === 'finalizers') return { type: 'set' };
    if (last === 'ownerReferences') return { type: 'map', keys: ['uid'] };
    return undefined;
  }
  return Object.prototype.hasOwnProperty.call(listTypes, last) ? listTypes[last] : undefined;
}

const atomicMaps = new Set(['selector', 'nodeSelector', 'labelSelector', 'namespaceSelector']);
const valueStructs = new Set(['spec', 'status', 'template', 'strategy', 'updateStrategy', 'jobTemplate', 'resources', 'source', 'scaleTargetRef']);

function defaultAlwaysPresent(path: string[]): boolean {
  const n = path.length;
  const last = path[n - 1];
  if (valueStructs.has(last)) return true;
  const parent = path[n - 2];
  if (last === 'metadata') return parent === 'template' || parent === 'jobTemplate';
  if (last === 'containers') return parent === 'spec';
  return false;
}

/**
 * Hints for the core built-in kinds (Pod, Deployment, StatefulSet, Job, Service ...): containers,
 * env, volumes, ports, volumeMounts, conditions and a few more are keyed as Kubernetes keys them;
 * every other list is atomic.
 */
export const defaultHints: TypeHints = {
  listType: defaultListType,
  mapAtomic: (path) => atomicMaps.has(path[path.length - 1]),
  alwaysPresent: defaultAlwaysPresent,
};
