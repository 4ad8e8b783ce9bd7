/**
 * Upstream-style component names for model classes (`io.k8s.api.core.v1.PodSpec`,
 * `io.k8s.apimachinery.pkg.apis.meta.v1.ObjectMeta`) and for CRD kinds
 * (`io.kruise.apps.v1beta1.CloneSet`). Client models do not record their API group, so a class
 * reachable from a core/v1 kind is named as core, a meta type as apimachinery, and any other
 * class after the group of the document that references it.
 */
import { modelAttributes } from './models.js';

const metaPackage = 'io.k8s.apimachinery.pkg.apis.meta.v1';

const metaTypes = new Set([
  'ObjectMeta', 'ListMeta', 'LabelSelector', 'LabelSelectorRequirement', 'OwnerReference', 'ManagedFieldsEntry',
  'Condition', 'Status', 'StatusDetails', 'StatusCause', 'DeleteOptions', 'Preconditions', 'APIResource',
  'APIResourceList', 'APIGroup', 'APIGroupList', 'APIVersions', 'GroupVersionForDiscovery',
  'ServerAddressByClientCIDR', 'WatchEvent', 'FieldSelectorRequirement',
]);

/** Names of the scalar types that have their own component upstream. */
export const specialNames = {
  Time: `${metaPackage}.Time`,
  MicroTime: `${metaPackage}.MicroTime`,
  ObjectMeta: `${metaPackage}.ObjectMeta`,
  ListMeta: `${metaPackage}.ListMeta`,
  Status: `${metaPackage}.Status`,
  DeleteOptions: `${metaPackage}.DeleteOptions`,
  Patch: `${metaPackage}.Patch`,
  IntOrString: 'io.k8s.apimachinery.pkg.util.intstr.IntOrString',
  Quantity: 'io.k8s.apimachinery.pkg.api.resource.Quantity',
} as const;

/** Package of a built-in API group, e.g. '' -> io.k8s.api.core, rbac.authorization.k8s.io -> io.k8s.api.rbac. */
export function groupPackage(group: string): string {
  if (group === 'apiextensions.k8s.io') return 'io.k8s.apiextensions-apiserver.pkg.apis.apiextensions';
  if (group === 'apiregistration.k8s.io') return 'io.k8s.kube-aggregator.pkg.apis.apiregistration';
  return `io.k8s.api.${group === '' ? 'core' : group.split('.')[0]}`;
}

/** Reversed-domain name of a CRD kind: apps.kruise.io/v1beta1 CloneSet -> io.kruise.apps.v1beta1.CloneSet. */
export function crdSchemaName(group: string, version: string, kind: string): string {
  return [...group.split('.').reverse(), version, kind].join('.');
}

const classPattern = /^([A-Z][a-z]+)?(V\d+(?:(?:alpha|beta)\d+)?)([A-Z]\w*)$/;

const coreRoots = [
  'V1Pod', 'V1Node', 'V1Service', 'V1PersistentVolume', 'V1PersistentVolumeClaim', 'V1ConfigMap', 'V1Secret',
  'V1Namespace', 'CoreV1Event', 'V1Endpoints', 'V1ServiceAccount', 'V1ReplicationController', 'V1PodTemplate',
  'V1LimitRange', 'V1ResourceQuota', 'V1Binding', 'V1ComponentStatus',
];

let coreClosure: Set<string> | undefined;

/** Classes nested in a type string such as `Array<V1Container>` or `{ [key: string]: V1Foo; }`. */
export function referencedClasses(type: string): string[] {
  return (type.match(/\b[A-Z]\w*/g) ?? []).filter((c) => modelAttributes(c) !== undefined);
}

function core(): Set<string> {
  if (coreClosure) return coreClosure;
  const seen = new Set<string>();
  const queue = [...coreRoots];
  while (queue.length > 0) {
    const cls = queue.pop() as string;
    if (seen.has(cls)) continue;
    seen.add(cls);
    for (const attr of modelAttributes(cls) ?? []) queue.push(...referencedClasses(attr.type));
  }
  coreClosure = seen;
  return seen;
}

/** The component name of a model class referenced from a document for `contextGroup`. */
export function schemaName(className: string, contextGroup: string): string {
  const m = classPattern.exec(className);
  if (!m) return className;
  const [, prefix, versionToken, short] = m;
  const version = versionToken.charAt(0).toLowerCase() + versionToken.slice(1);
  if (metaTypes.has(short) && !prefix) return `${metaPackage}.${short}`;
  if (prefix) {
    const group = prefix === 'Core' ? '' : prefix === 'Apiextensions' ? 'apiextensions.k8s.io' : prefix === 'Apiregistration' ? 'apiregistration.k8s.io' : prefix.toLowerCase();
    return `${groupPackage(group)}.${version}.${short}`;
  }
  const group = core().has(className) ? '' : contextGroup;
  return `${groupPackage(group)}.${version}.${short}`;
}
