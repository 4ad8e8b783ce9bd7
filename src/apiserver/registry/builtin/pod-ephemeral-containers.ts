/**
 * pods/ephemeralcontainers (what `kubectl debug` patches): GET returns the pod; PUT and PATCH change
 * only spec.ephemeralContainers, as kube's podEphemeralContainersStrategy keeps nothing else of the
 * request, and existing ephemeral containers may be neither changed nor removed.
 */
import type { KObject } from '../../../api/meta.js';
import { getObject } from '../read.js';
import { patchObject } from '../patch.js';
import type { SubresourceStorage } from '../subresource.js';
import { updateObject, type SubresourceUpdateStrategy } from '../update.js';
import { validateEphemeralContainersUpdate } from './pod-update-validation.js';

const subresource = 'ephemeralcontainers';

/** dropNonEphemeralContainerUpdates: the current pod with the request's ephemeral containers. */
function keepEphemeralContainers(requested: KObject, old: KObject): KObject {
  const spec = { ...(old.spec as Record<string, unknown>) };
  const ephemeral = (requested.spec as { ephemeralContainers?: unknown } | undefined)?.ephemeralContainers;
  if (ephemeral === undefined) delete spec.ephemeralContainers;
  else spec.ephemeralContainers = ephemeral;
  return { ...structuredClone(old), metadata: { ...structuredClone(old.metadata), managedFields: requested.metadata.managedFields }, spec };
}

const ephemeralContainersStrategy: SubresourceUpdateStrategy = {
  prepare: keepEphemeralContainers,
  validate: validateEphemeralContainersUpdate,
};

export const podEphemeralContainersSubresource: SubresourceStorage = {
  async get({ core, resource, namespace, name }) {
    return { object: await getObject(core, resource, namespace, name) };
  },
  async update({ core, resource, namespace, name, ctx }, body) {
    const object = await updateObject(core, resource, namespace, name, body, ctx, { subresource, strategy: ephemeralContainersStrategy });
    return { object, warnings: ctx.warnings };
  },
  async patch({ core, resource, namespace, name, ctx }, patch) {
    const object = await patchObject(core, resource, namespace, name, { ...patch, subresource }, ctx, ephemeralContainersStrategy);
    return { object, warnings: ctx.warnings };
  },
};
