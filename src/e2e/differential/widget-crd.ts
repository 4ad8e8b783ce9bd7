/**
 * The CustomResourceDefinition the custom-resource cases share (created once per server before the
 * cases run): validation, defaults, pruning, int-or-string, printer columns, status and scale.
 */
import type { DiffApi, Json } from './api.js';
import { must } from './case-kit.js';

export function widgetCrd(group = 'diff.example.com', plural = 'widgets', kind = 'Widget'): Json {
  const specSchema = {
    type: 'object',
    required: ['color'],
    properties: {
      replicas: { type: 'integer', minimum: 0, default: 1 },
      color: { type: 'string', enum: ['red', 'green', 'blue'] },
      size: { 'x-kubernetes-int-or-string': true },
      label: { type: 'string', maxLength: 8, pattern: '^[a-z]+$' },
      tags: { type: 'array', items: { type: 'string' }, 'x-kubernetes-list-type': 'set' },
      nested: { type: 'object', properties: { mode: { type: 'string', default: 'auto' }, level: { type: 'integer' } } },
      extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
    },
  };
  return {
    apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition',
    metadata: { name: `${plural}.${group}` },
    spec: {
      group, scope: 'Namespaced',
      names: { plural, singular: kind.toLowerCase(), kind, listKind: `${kind}List`, shortNames: [kind.toLowerCase().slice(0, 3)] },
      versions: [{
        name: 'v1', served: true, storage: true,
        subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
        additionalPrinterColumns: [
          { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
          { name: 'Color', type: 'string', jsonPath: '.spec.color', description: 'the colour' },
          { name: 'Size', type: 'string', jsonPath: '.spec.size', priority: 1 },
          { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
        ],
        schema: {
          openAPIV3Schema: {
            type: 'object',
            properties: {
              spec: specSchema,
              status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' } } },
            },
          },
        },
      }],
    },
  };
}

/** Creates the CRD and waits until its resource answers list requests. */
export async function installCrd(api: DiffApi, crd: Json, timeoutMs = 20_000): Promise<void> {
  must(await api.request('POST', '/apis/apiextensions.k8s.io/v1/customresourcedefinitions', crd), `create CRD ${crd.metadata.name}`);
  const { group, names, versions } = crd.spec;
  const list = `/apis/${group}/${versions[0].name}/${names.plural}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const crdNow = await api.request('GET', `/apis/apiextensions.k8s.io/v1/customresourcedefinitions/${crd.metadata.name}`);
    const established = (crdNow.body?.status?.conditions ?? []).some((c: Json) => c.type === 'Established' && c.status === 'True');
    if (established && (await api.request('GET', list)).status === 200) return;
    if (Date.now() > deadline) throw new Error(`CRD ${crd.metadata.name} not served after ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
