/**
 * One definition per Kruise kind: its TypeBox schemas (one per served version) yield the
 * TypeScript types (`Static<typeof Schema>`), the CRD (`crdOf`), and through the CRD the server's
 * validation, defaulting, pruning and OpenAPI.
 */
import type { TSchema } from '@sinclair/typebox';
import type { KObject } from '../meta.js';

export interface PrinterColumn {
  name: string;
  type: 'string' | 'integer' | 'number' | 'boolean' | 'date';
  jsonPath: string;
  description?: string;
  format?: string;
  priority?: number;
}

export interface KindVersion {
  name: string;
  served: boolean;
  storage: boolean;
  /** Schema of the whole object (apiVersion, kind, metadata, spec, status). */
  schema: TSchema;
  printerColumns?: PrinterColumn[];
  subresources?: { status?: boolean; scale?: { specReplicasPath: string; statusReplicasPath: string; labelSelectorPath?: string } };
}

export interface KindDefinition {
  group: 'apps.kruise.io' | 'policy.kruise.io';
  kind: string;
  plural: string;
  singular: string;
  shortNames?: string[];
  categories?: string[];
  scope: 'Namespaced' | 'Cluster';
  versions: KindVersion[];
}

export function defineKind(def: KindDefinition): KindDefinition {
  const storage = def.versions.filter((v) => v.storage);
  if (storage.length !== 1) throw new Error(`${def.kind}: exactly one storage version is required`);
  return def;
}

/** JSON of a TypeBox schema without TypeBox's symbol keys. */
function plainSchema(schema: TSchema): Record<string, unknown> {
  return JSON.parse(JSON.stringify(schema)) as Record<string, unknown>;
}

/** Where the API server sends ConversionReviews: the manager's `/convert` behind the webhook Service. */
export const conversionWebhookService = { namespace: 'kruise-system', name: 'kruise-webhook-service', path: '/convert', port: 443 };

/**
 * Kinds served in more than one version convert through the manager's webhook; the manager
 * fills in caBundle (and the URL form outside a cluster) once its certificates exist.
 */
function conversionOf(def: KindDefinition): Record<string, unknown> {
  if (def.versions.length < 2) return {};
  return {
    conversion: {
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { ...conversionWebhookService } }, conversionReviewVersions: ['v1', 'v1beta1'] },
    },
  };
}

/** The apiextensions.k8s.io/v1 CustomResourceDefinition of a kind. */
export function crdOf(def: KindDefinition): KObject {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `${def.plural}.${def.group}`, annotations: { 'controller-gen.kubebuilder.io/version': 'kruise-ts' } },
    spec: {
      group: def.group,
      scope: def.scope,
      names: {
        kind: def.kind, listKind: `${def.kind}List`, plural: def.plural, singular: def.singular,
        ...(def.shortNames?.length ? { shortNames: def.shortNames } : {}),
        ...(def.categories?.length ? { categories: def.categories } : {}),
      },
      versions: def.versions.map((v) => ({
        name: v.name, served: v.served, storage: v.storage,
        schema: { openAPIV3Schema: plainSchema(v.schema) },
        ...(v.subresources ? { subresources: { ...(v.subresources.status ? { status: {} } : {}), ...(v.subresources.scale ? { scale: v.subresources.scale } : {}) } } : {}),
        ...(v.printerColumns?.length ? { additionalPrinterColumns: v.printerColumns } : {}),
      })),
      ...conversionOf(def),
    },
  };
}
