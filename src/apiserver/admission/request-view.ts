/**
 * The request as webhooks see it: the kind of a subresource's own object (Binding, Eviction,
 * Scale), Scales for `/scale` writes (the registry hands admission the parent object), and moving
 * objects to and from the version a webhook is called with under matchPolicy Equivalent.
 */
import type { KObject } from '../../api/meta.js';
import type { GroupVersionKind } from '../../api/admission.js';
import type { AdmissionAttributes } from '../registry/context.js';
import { apiVersionOf } from '../registry/served-resource.js';
import { toScale, writePath } from '../registry/scale.js';
import { isNamespaceResource, type Invocation, type RequestView } from './matching.js';

const subresourceKinds: Record<string, GroupVersionKind> = {
  binding: { group: '', version: 'v1', kind: 'Binding' },
  eviction: { group: 'policy', version: 'v1', kind: 'Eviction' },
  scale: { group: 'autoscaling', version: 'v1', kind: 'Scale' },
};

function gvkOf(obj: KObject | undefined): GroupVersionKind | undefined {
  if (!obj?.apiVersion || !obj.kind) return undefined;
  const slash = obj.apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: obj.apiVersion, kind: obj.kind } : { group: obj.apiVersion.slice(0, slash), version: obj.apiVersion.slice(slash + 1), kind: obj.kind };
}

const isScale = (attrs: AdmissionAttributes) => attrs.subresource === 'scale' && !!attrs.resource.definition.subresources?.scale;

export function requestView(attrs: AdmissionAttributes, object: KObject | undefined): RequestView {
  const r = attrs.resource;
  const d = r.definition;
  const sub = attrs.subresource ?? '';
  let kind: GroupVersionKind = { group: d.group, version: d.version, kind: d.kind };
  let viewObject = object;
  let viewOld = attrs.oldObject;
  if (isScale(attrs)) {
    kind = subresourceKinds.scale;
    viewObject = object && toScale(r, object);
    viewOld = viewOld && toScale(r, viewOld);
  } else if (sub && sub !== 'status') {
    kind = gvkOf(object) ?? subresourceKinds[sub] ?? kind;
  }
  let namespace = attrs.namespace ?? '';
  // kube reads the namespace of /namespaces/<name> requests from the path: the Namespace's own name.
  if (isNamespaceResource(r) && attrs.operation !== 'CREATE' && !namespace) namespace = attrs.name ?? '';
  return { operation: attrs.operation, resource: r, subresource: sub, namespace, name: attrs.name ?? '', kind, object: viewObject, oldObject: viewOld };
}

/** Whether the invocation needs objects converted (another version of the resource itself or its status). */
function converts(inv: Invocation, view: RequestView): boolean {
  return inv.resource !== view.resource && (view.subresource === '' || view.subresource === 'status');
}

export async function toInvocationVersion(inv: Invocation, view: RequestView, obj: KObject | undefined): Promise<KObject | undefined> {
  if (!obj || !converts(inv, view)) return obj;
  return inv.resource.convert(obj, apiVersionOf(inv.resource.definition));
}

/** The request's object after a webhook patched its view `patched` (in the invocation's version). */
export async function fromInvocationVersion(inv: Invocation, view: RequestView, attrs: AdmissionAttributes, current: KObject, patched: KObject): Promise<KObject> {
  if (isScale(attrs)) {
    const next = structuredClone(current);
    const replicas = (patched.spec as { replicas?: unknown } | undefined)?.replicas;
    writePath(next as Record<string, unknown>, attrs.resource.definition.subresources!.scale!.specReplicasPath, replicas);
    return next;
  }
  if (!converts(inv, view)) return patched;
  return view.resource.convert(patched, apiVersionOf(view.resource.definition));
}
