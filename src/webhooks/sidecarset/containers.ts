/**
 * The sidecar containers of a SidecarSet: at least one container or init container, the Kruise
 * enums, transferEnv field references (only label/annotation subscripts convert), resourcesPolicy,
 * then everything (init containers, containers, volumes) validated as a fake pod would be.
 */
import { field, type FieldError } from '../../machinery/errors.js';
import { child, items, str, type Json } from '../../machinery/json.js';
import { validatePodSpec } from '../../machinery/podspec/pod-spec-validation.js';
import { invalidEach } from '../../machinery/validation/checks.js';
import { isQualifiedName } from '../../machinery/validation/names.js';
import { validateResourcesPolicy } from './resources-policy.js';

export function validateSidecarContainers(spec: Json): FieldError[] {
  const inits = items(spec, 'initContainers');
  const containers = items(spec, 'containers');
  if (inits.length === 0 && containers.length === 0) {
    return [field.required('spec', 'no initContainer or container defined for SidecarSet')];
  }
  const errs: FieldError[] = [];
  containers.forEach((c, i) => {
    const p = `spec.containers[${i}]`;
    const inject = str(c, 'podInjectPolicy');
    if (inject !== 'BeforeAppContainer' && inject !== 'AfterAppContainer') {
      errs.push(field.invalid(`${p}.podInjectPolicy`, inject, 'unsupported pod inject policy'));
    }
    const share = str(child(c, 'shareVolumePolicy'), 'type');
    if (share !== 'enabled' && share !== 'disabled') errs.push(field.invalid(`${p}.shareVolumePolicy`, c.shareVolumePolicy ?? null, 'unsupported share volume policy'));
    items(c, 'transferEnv').forEach((t, j) => errs.push(...validateTransferEnvFieldRef(t, `${p}.transferEnv[${j}]`)));
    errs.push(...validateResourcesPolicy(c, p, false));
  });
  inits.forEach((c, i) => errs.push(...validateResourcesPolicy(c, `spec.initContainers[${i}]`, true)));
  errs.push(...validateAsFakePod(spec, inits, containers));
  return errs;
}

/** The pod validation needs a container; a placeholder stands in when there are only init containers. */
function validateAsFakePod(spec: Json, inits: Json[], containers: Json[]): FieldError[] {
  const placeholder = { name: 'test', image: 'busybox', imagePullPolicy: 'IfNotPresent', terminationMessagePolicy: 'File' };
  const fakePodSpec = {
    dnsPolicy: 'ClusterFirst', restartPolicy: 'Always', serviceAccountName: 'default',
    initContainers: inits, containers: containers.length > 0 ? containers : [placeholder], volumes: spec.volumes ?? [],
  };
  return validatePodSpec(fakePodSpec, 'spec');
}

const subscriptRe = /^(metadata\.(?:labels|annotations))\['(.*)'\]$/;

function validateTransferEnvFieldRef(transfer: Json, path: string): FieldError[] {
  const ref = child(child(transfer, 'sourceContainerNameFrom'), 'fieldRef');
  if (!ref) return [];
  const p = `${path}.sourceContainerNameFrom.fieldRef`;
  const apiVersion = str(ref, 'apiVersion');
  const fieldPath = str(ref, 'fieldPath');
  if (!apiVersion) return [field.required(`${p}.apiVersion`)];
  if (!fieldPath) return [field.required(`${p}.fieldPath`)];
  if (apiVersion !== 'v1') return [field.invalid(`${p}.fieldPath`, fieldPath, `error converting fieldPath: unsupported pod version: ${apiVersion}`)];
  const m = subscriptRe.exec(fieldPath);
  if (!m) return [field.invalid(`${p}.fieldPath`, fieldPath, `error converting fieldPath: field label not supported: ${fieldPath}`)];
  const key = m[1] === 'metadata.annotations' ? m[2].toLowerCase() : m[2];
  return invalidEach(p, m[2], isQualifiedName(key));
}
