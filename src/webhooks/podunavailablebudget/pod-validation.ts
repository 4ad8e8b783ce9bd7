/**
 * The `pub` step of the pod validating chain (docs/design/podunavailablebudget.md §4): a delete,
 * an eviction (CREATE of `pods/eviction`) or an in-place update of a pod bound to a PUB consumes
 * the budget or is refused with 403 and upstream's message.
 */
import type { Pod } from '../../api/core/index.js';
import type { PubOperation } from '../../api/kruise/ops/podunavailablebudget.js';
import { Pods } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { checkPodBudget, isResizeOnly, isUnavailableChange, pubMetrics, relatedPub } from '../../control/pubcontrol/index.js';
import type { PodUnavailableBudget } from '../../control/pubcontrol/index.js';
import { EventRecorder } from '../../runtime/events.js';
import { AdmissionDenied, type AdmissionInput } from '../kind-webhook.js';
import type { PodValidationStep } from '../pod/validation-step.js';
import { protectionLog } from '../protection/protection-log.js';

export const PubDeleteGate = 'PodUnavailableBudgetDeleteGate';
export const PubUpdateGate = 'PodUnavailableBudgetUpdateGate';

interface Subject { pod: Pod; operation: PubOperation; dryRun: boolean }

/** Step 1: the pod whose availability the request risks, or undefined when the budget is not concerned. */
async function subjectOf(input: AdmissionInput): Promise<Subject | undefined> {
  const { request } = input;
  const dryRun = request.dryRun === true;
  if (request.operation === 'DELETE') {
    if (request.subResource || !input.oldObject || !input.gate(PubDeleteGate)) return undefined;
    return { pod: input.oldObject as Pod, operation: 'DELETE', dryRun };
  }
  if (request.operation === 'CREATE') {
    if (request.subResource !== 'eviction' || !input.gate(PubDeleteGate)) return undefined;
    const eviction = input.object as { deleteOptions?: { dryRun?: string[] } } | undefined;
    const pod = await input.client.get<Pod>(Pods, request.namespace, request.name!);
    return { pod, operation: 'EVICT', dryRun: dryRun || (eviction?.deleteOptions?.dryRun ?? []).length > 0 };
  }
  if (request.operation === 'UPDATE') {
    if (request.subResource || !input.gate(PubUpdateGate)) return undefined;
    const [oldPod, newPod] = [input.oldObject as Pod | undefined, input.object as Pod | undefined];
    if (!oldPod || !newPod || !relatedPub(newPod) || !isUnavailableChange(oldPod, newPod)) return undefined;
    return { pod: oldPod, operation: isResizeOnly(oldPod, newPod) ? 'RESIZE' : 'UPDATE', dryRun };
  }
  return undefined;
}

const recorders = new WeakMap<Client, EventRecorder>();
const recorderFor = (client: Client): EventRecorder => {
  let r = recorders.get(client);
  if (!r) recorders.set(client, (r = new EventRecorder({ client, component: 'kruise-manager' })));
  return r;
};

/** Step 5: metric, Warning event on the pod, protection log line. */
export async function recordRefusal(client: Client, pod: Pod, username: string): Promise<void> {
  const owner = pod.metadata.ownerReferences?.find((r) => r.controller);
  const namespace = pod.metadata.namespace || 'default';
  const [kind, name] = owner ? [owner.kind, owner.name] : ['unknown', pod.metadata.name!];
  pubMetrics.refused.inc({ kind_namespace_name: `${kind}_${namespace}_${name}`, username });
  recorderFor(client).event({ ...pod, apiVersion: 'v1', kind: 'Pod' }, 'Warning', 'PubPreventPodDeletion', 'openkruise pub prevents pod deletion');
  await protectionLog.record({ event: 'PodUnavailableBudget', kind, namespace, name, userAgent: username });
}

async function validate(input: AdmissionInput): Promise<void> {
  let subject: Subject | undefined;
  try {
    subject = await subjectOf(input);
  } catch (e) {
    throw new AdmissionDenied(400, e instanceof Error ? e.message : String(e));
  }
  if (!subject) return;
  const username = input.request.userInfo?.username ?? '';
  const verdict = await checkPodBudget({
    client: input.client, pod: subject.pod, operation: subject.operation, dryRun: subject.dryRun, now: Date.now,
    verticalScaling: input.gate('InPlacePodVerticalScaling'),
    onRefused: (pod: Pod, _pub: PodUnavailableBudget) => recordRefusal(input.client, pod, username),
  }).catch((e: unknown) => { throw new AdmissionDenied(400, e instanceof Error ? e.message : String(e)); });
  if (!verdict.allowed) throw new AdmissionDenied(403, verdict.message);
}

export const pubValidationStep: PodValidationStep = {
  name: 'pub',
  enabled: (gate) => gate(PubDeleteGate) || gate(PubUpdateGate),
  validate,
};
