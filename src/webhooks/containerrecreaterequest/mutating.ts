/**
 * ContainerRecreateRequest admission (mcontainerrecreaterequest.kb.io, docs/design/container-recreate.md §2;
 * mutating only, create and update): the spec and target labels never change after creation; a new
 * request is checked, defaulted and bound to its pod and node. Every refusal is an AdmissionDenied with upstream's code
 * (403 for immutability and the gate, 400 for a bad request, 500 when the pod cannot be read).
 */
import {
  CRRActiveLabel, CRRNodeNameLabel, CRRPodNameLabel, CRRPodUidLabel, CRRPreRecreateGraceCondition, CRRUnreadyAcquiredKey,
  defaultContainerRecreateRequest, type ContainerRecreateRequest,
} from '../../api/kruise/ops/index.js';
import type { KObject } from '../../api/meta.js';
import { Nodes, Pods } from '../../api/resource-type.js';
import { deepEqual } from '../../machinery/deep-equal.js';
import { isNotFound } from '../../machinery/errors.js';
import { child, items, str } from '../../machinery/json.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import { BadRequest, injectPod } from './inject-pod.js';

const minDeadlineSeconds = 3;
const bad = (message: string): AdmissionDenied => new AdmissionDenied(400, message);

export async function defaultContainerRecreateRequestAdmission(input: AdmissionInput): Promise<KObject> {
  if (!input.gate('KruiseDaemon')) throw new AdmissionDenied(403, 'feature-gate KruiseDaemon is not enabled');
  const obj = input.object as ContainerRecreateRequest | undefined;
  if (!obj || input.request.subResource) return obj as KObject;
  if (input.request.operation === 'UPDATE') {
    checkUpdate(obj, input.oldObject as ContainerRecreateRequest, input.version);
    return obj as KObject;
  }
  if (input.request.operation !== 'CREATE') return obj as KObject;
  const crr = checkedCopy(obj);
  const namespace = crr.metadata?.namespace ?? input.request.namespace;
  const pod = await readPod(input, namespace, crr.spec!.podName);
  const node = await readNode(input, str(child(pod, 'spec'), 'nodeName'));
  try {
    injectPod(crr, pod, node);
  } catch (e) {
    if (e instanceof BadRequest) throw bad(e.message);
    throw e;
  }
  return crr as KObject;
}

function checkUpdate(obj: ContainerRecreateRequest, old: ContainerRecreateRequest, version: string): void {
  if (!deepEqual(obj.spec, old?.spec)) throw new AdmissionDenied(403, 'spec of ContainerRecreateRequest is immutable');
  for (const key of [CRRPodNameLabel, CRRPodUidLabel, CRRNodeNameLabel]) {
    if ((obj.metadata?.labels?.[key] ?? '') !== (old?.metadata?.labels?.[key] ?? '')) {
      throw new AdmissionDenied(403, `not allowed to update immutable label ${key}`);
    }
  }
  // v1alpha1 keeps the unready-acquired time in an annotation, which the hub holds as this condition.
  const graceTime = (o: unknown) => items(child(o, 'status'), 'conditions').find((c) => c.type === CRRPreRecreateGraceCondition)?.lastTransitionTime;
  const before = graceTime(old);
  if (version === 'v1alpha1' && before && graceTime(obj) !== before) {
    throw new AdmissionDenied(403, `not allowed to update immutable annotation ${CRRUnreadyAcquiredKey}`);
  }
}

/** The request's own checks and defaults: a copy with the active label and a defaulted strategy. */
function checkedCopy(obj: ContainerRecreateRequest): ContainerRecreateRequest {
  const spec = obj.spec;
  if (!spec?.podName) throw bad('podName can not be empty');
  if (!spec.containers?.length) throw bad('containers list can not be null');
  if (spec.activeDeadlineSeconds !== undefined && spec.activeDeadlineSeconds < minDeadlineSeconds) {
    throw bad(`activeDeadlineSeconds can not be less than ${minDeadlineSeconds}s`);
  }
  for (const key of ['terminationGracePeriodSeconds', 'unreadyGracePeriodSeconds'] as const) {
    const value = spec.strategy?.[key];
    if (value !== undefined && value < 0) throw bad(`${key} must be non-negative integer`);
  }
  const policy = spec.strategy?.failurePolicy;
  if (policy && policy !== 'Fail' && policy !== 'Ignore') throw bad(`unknown failurePolicy ${policy}`);
  const crr = defaultContainerRecreateRequest(obj);
  crr.metadata = { ...crr.metadata, labels: { ...crr.metadata?.labels, [CRRPodNameLabel]: spec.podName, [CRRActiveLabel]: 'true' } };
  return crr;
}

const terminal = (pod: KObject): boolean => ['Succeeded', 'Failed'].includes(str(child(pod, 'status'), 'phase'));
const sidecarTerminated = (pod: KObject): boolean => items(child(pod, 'status'), 'conditions').some((c) => c.type === 'SidecarTerminated');

async function readPod(input: AdmissionInput, namespace: string | undefined, name: string): Promise<KObject> {
  let pod: KObject;
  try {
    pod = await input.client.get(Pods, namespace, name);
  } catch (e) {
    if (isNotFound(e)) throw bad(`no found Pod named ${name}`);
    throw new AdmissionDenied(500, `failed to find Pod ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
  const active = !pod.metadata.deletionTimestamp && !terminal(pod);
  if (!active && !sidecarTerminated(pod)) throw bad('not allowed to recreate containers in an inactive Pod');
  if (!str(child(pod, 'spec'), 'nodeName')) throw bad('not allowed to recreate containers in a pending Pod');
  return pod;
}

async function readNode(input: AdmissionInput, name: string): Promise<KObject> {
  try {
    return await input.client.get(Nodes, undefined, name);
  } catch (e) {
    if (isNotFound(e)) throw bad(`no found Node named ${name}`);
    throw new AdmissionDenied(500, `failed to find Node ${name}: ${e instanceof Error ? e.message : String(e)}`);
  }
}
