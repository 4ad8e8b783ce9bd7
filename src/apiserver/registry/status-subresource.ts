/**
 * The `/status` subresource: reads the whole object; writes go through the generic update path
 * with subresource `status`, which scopes them to status (write-scope.ts) and leaves generation alone.
 */
import { getObject } from './read.js';
import { patchObject } from './patch.js';
import type { SubresourceStorage } from './subresource.js';
import { updateObject } from './update.js';

export const statusSubresource: SubresourceStorage = {
  async get({ core, resource, namespace, name }) {
    return { object: await getObject(core, resource, namespace, name) };
  },
  async update({ core, resource, namespace, name, ctx }, body) {
    return { object: await updateObject(core, resource, namespace, name, body, ctx, { subresource: 'status' }), warnings: ctx.warnings };
  },
  async patch({ core, resource, namespace, name, ctx }, patch) {
    return { object: await patchObject(core, resource, namespace, name, { ...patch, subresource: 'status' }, ctx), warnings: ctx.warnings };
  },
};
