/**
 * Template defaulting of Kruise workloads (docs/design/webhooks.md §7): the pod defaults kube-apiserver
 * applies, except that containers default to `imagePullPolicy: Always` whatever the tag; PVC
 * templates get `volumeMode: Filesystem`; with gate DefaultHostNetworkHostPortsInPodTemplates a
 * hostNetwork template's ports get hostPort = containerPort. Mutates in place.
 */
import { defaultClaimSpec, defaultHostNetworkPorts, defaultPodTemplate } from '../../machinery/podspec/pod-spec-defaults.js';
import { isObject } from '../../api/meta.js';

export function defaultKruisePodTemplate(template: unknown, gate: (name: string) => boolean): void {
  if (!isObject(template)) return;
  const spec = template.spec;
  if (isObject(spec)) {
    // kube stopped defaulting templates' host ports in 1.28; upstream's gate brings it back
    if (gate('DefaultHostNetworkHostPortsInPodTemplates')) defaultHostNetworkPorts(spec);
    for (const list of ['initContainers', 'containers']) {
      const containers = spec[list];
      if (!Array.isArray(containers)) continue;
      for (const c of containers) if (isObject(c) && !c.imagePullPolicy) c.imagePullPolicy = 'Always';
    }
  }
  defaultPodTemplate(template);
}

export function defaultClaimTemplates(templates: unknown): void {
  if (!Array.isArray(templates)) return;
  for (const t of templates) if (isObject(t) && isObject(t.spec)) defaultClaimSpec(t.spec);
}
