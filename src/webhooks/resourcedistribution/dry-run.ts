/**
 * Whether the API server would accept the embedded resource: a dry-run create in the Kruise
 * namespace (its own metadata.namespace is ignored, as the controller overrides it per target).
 */
import { ConfigMaps, Secrets } from '../../api/resource-type.js';
import type { KObject } from '../../api/meta.js';
import type { Client } from '../../client/client.js';
import { StatusError, field, isAlreadyExists, type FieldError } from '../../machinery/errors.js';
import { internalError, type EmbeddedResource } from './validation.js';

export async function dryRunResource(client: Client, resource: EmbeddedResource, namespace: string, path: string): Promise<FieldError[]> {
  const copy = structuredClone(resource) as KObject;
  copy.metadata = { ...(copy.metadata ?? {}), namespace };
  try {
    await client.create(copy.kind === 'Secret' ? Secrets : ConfigMaps, copy, { dryRun: true });
    return [];
  } catch (e) {
    if (isAlreadyExists(e)) return [];
    const message = (e as Error).message;
    const code = e instanceof StatusError ? e.code : 0;
    if (code === 422 || code === 400) return [field.invalid(path, null, `spec.resource is invalid: ${message}`)];
    if (code === 403) return [field.forbidden(path, `spec.resource is forbidden: ${message}`)];
    return [internalError(path, `failed to dry-run validate spec.resource: ${message}`)];
  }
}
