/**
 * The differential case library: every case runs against the embedded server and a real
 * kube-apiserver in a fresh namespace and reports a normalised observation.
 *
 * Known differences are attached here by case name (with the reason documented in
 * docs/known-differences.md), so a case file stays a plain description of the probe.
 */
import { applyCases } from './cases-apply.js';
import { crdCases } from './cases-crd.js';
import { crudCases } from './cases-crud.js';
import { deleteCases } from './cases-delete.js';
import { deleteResponseCases } from './cases-delete-responses.js';
import { errorCases } from './cases-errors.js';
import { gcCases } from './cases-gc.js';
import { namespaceCases } from './cases-namespace.js';
import { patchCases } from './cases-patch.js';
import { podCases } from './cases-pods.js';
import { requestOptionCases } from './cases-request-options.js';
import { selectorCases } from './cases-selectors.js';
import { tableCases } from './cases-table.js';
import { protobufCases } from './cases-protobuf.js';
import { updateCases } from './cases-update.js';
import { watchCases } from './cases-watch.js';
import { rbacCases } from './cases-rbac.js';
import { rbacPolicyCases } from './cases-rbac-policy.js';
import { impersonationCases } from './cases-impersonation.js';
import { escalationCases } from './cases-escalation.js';
import { zeroValueCases } from './cases-zero-values.js';
import { parityCases } from './cases-parity.js';
import { admissionPolicyCases } from './cases-admission-policy.js';
import { storageAutoscalingCases } from './cases-storage-autoscaling.js';
import { serviceAccountCases } from './cases-service-accounts.js';
import { nodeRestrictionCases } from './cases-node-restriction.js';
import type { DiffCase } from './case-kit.js';

export type { CaseContext, DiffCase, Observation } from './case-kit.js';

/** Case name -> what differs (one line; details in docs/known-differences.md). */
export const knownDifferences: Record<string, string> = {
  'deployment: create returns the whole defaulted object': 'real serialises Go zero values: resources: {}, status: {}, template creationTimestamp: null',
  'create: empty maps and lists in the body': 'real drops empty labels/annotations/finalizers/data/binaryData on write; ours stores them',
  'list: built-in items carry no apiVersion and kind': 'ours puts apiVersion/kind on built-in list items; real omits them',
  'BadRequest: malformed JSON body': 'decode error message text differs (real: "the object provided is unrecognized (must be of type ConfigMap): ...")',
  'Invalid: create without a name': 'ours sets details.name to ""; real omits it',
  'Invalid: messages that quote composite values': 'real renders invalid values in Go syntax (map[string]string{...}, pointers) and repeats the finalizer cause; ours renders JSON and repeats the ownerReferences error',
  'field selector: unsupported field on configmaps is 400': 'real: "\"data.k\" is not a known field selector: only \"metadata.name\", \"metadata.namespace\""; ours: "field label not supported: data.k"',
  'list: remainingItemCount with a selector, invalid continue token': 'real omits remainingItemCount when a selector filters; ours counts; invalid continue message differs',
  'update: an unparsable resourceVersion': 'real answers 500 with a strconv error; ours 409 Conflict (acceptable)',
  'JSON patch: error messages for a failed test, a missing path and a non-list body': 'real: generic "the server rejected our request due to an error in our request" without causes; ours: specific message with a cause',
  'strategic merge patch: an unknown $patch directive': 'real answers 500 (no reason); ours 400 BadRequest (acceptable)',
  'patch errors: Status details of 415 answers': 'ours adds details.causes UnsupportedMediaType; real text/plain message is "415: Unsupported Media Type"',
  'server-side apply: request errors': 'missing fieldManager: real 422 Invalid PatchOptions, ours 400 BadRequest; missing kind message differs',
  'server-side apply: YAML 1.1 boolean words as keys and values': 'real parses YAML 1.1 (key n becomes "false"); ours YAML 1.2 (acceptable)',
  'delete: a Job without propagationPolicy orphans, with a warning': 'ours sends no Warning header for the orphaning default',
  'ownerReferences: two controllers and bad references are 422': 'ours reports each ownerReferences error twice; real once (with Go-syntax values)',
  'custom resource: validation errors are 422 with field paths': 'real adds .spec.replicas errors from the scale subresource and skips pattern after maxLength; ours not',
  'custom resource: negative replicas through /scale': 'real validates the custom resource (Widget.diff.example.com invalid); ours validates the Scale object',
  'request options: unsupported fieldValidation and dryRun values': 'real: 422 Invalid CreateOptions with a cause; ours: 400 BadRequest',
  'hpa: created through autoscaling/v1, read as v2': 'v1 CrossVersionObjectReference is structType=atomic (managedFields f:scaleTargetRef: {}); our type hints are per path, not per version, so we record its fields as v2 does',
  'pod: the whole object after defaulting and admission': 'ours lacks the Go zero value resources: {} (and its f:resources managedFields entry)',
};

const library: DiffCase[] = [
  ...crudCases, ...errorCases, ...selectorCases, ...watchCases, ...updateCases, ...patchCases, ...applyCases,
  ...deleteCases, ...deleteResponseCases, ...gcCases, ...crdCases, ...requestOptionCases, ...tableCases, ...protobufCases, ...podCases, ...namespaceCases,
  ...rbacCases, ...rbacPolicyCases, ...impersonationCases, ...escalationCases, ...zeroValueCases, ...parityCases, ...admissionPolicyCases, ...storageAutoscalingCases, ...serviceAccountCases, ...nodeRestrictionCases,
];

export const cases: DiffCase[] = library.map((c) => (knownDifferences[c.name] ? { ...c, knownDifference: knownDifferences[c.name] } : c));

/** Names in knownDifferences that match no case (a renamed case would silently lose its marker). */
export function unmatchedKnownDifferences(): string[] {
  const names = new Set(library.map((c) => c.name));
  return Object.keys(knownDifferences).filter((n) => !names.has(n));
}
