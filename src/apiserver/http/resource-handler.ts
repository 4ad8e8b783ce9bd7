/** Serves one resource request: picks the registry verb, decodes the body, shapes the response. */
import type { KObject } from '../../api/meta.js';
import { errors } from '../../machinery/errors.js';
import type { Registry } from '../registry/registry.js';
import type { ServedResource } from '../registry/served-resource.js';
import { patchContentTypes, type PatchRequest } from '../registry/patch.js';
import { isSubresourceVerb, type SubresourceCall, type SubresourceVerb } from '../registry/subresource.js';
import type { ResourceRequestInfo } from './request-info.js';
import type { ApiRequest, ApiResponse } from '../../api/request.js';
import { acceptInfo, deleteOptions, listOptions, requestContext, withBodyDryRun } from './query.js';
import { checkWriteContentType, decodeJson, decodeObject, decodeOptionalBody, decodeYamlOrJson, jsonDuplicateFields } from './body.js';
import { tableOf } from './table.js';
import { watchResponse } from './watch-stream.js';

const ok = (body: unknown, code = 200): ApiResponse => ({ code, body });

export async function handleResource(registry: Registry, r: ServedResource, info: ResourceRequestInfo, req: ApiRequest): Promise<ApiResponse> {
  const sub = info.subresource;
  if (sub) return handleSubresource(registry, r, info, req);
  const ns = r.definition.namespaced ? info.namespace : undefined;
  const accept = acceptInfo(req);
  const ctx = requestContext(req, req.user);
  if ((info.verb === 'create' || info.verb === 'update') && ctx.fieldValidation !== 'Ignore') ctx.duplicateFields = jsonDuplicateFields(req.body, req.headers['content-type']);
  const respond = async (obj: KObject, code = 200): Promise<ApiResponse> => ({
    code, warnings: ctx.warnings,
    body: accept.table ? tableOf(r, [obj], accept, registry, undefined) : obj,
  });
  switch (info.verb) {
    case 'get': return respond(await registry.get(r, ns, info.name!));
    case 'list': {
      const list = await registry.list(r, ns, listOptions(req.query));
      return ok(accept.table ? tableOf(r, list.items, accept, registry, list.metadata) : list);
    }
    case 'watch': {
      const o = listOptions(req.query);
      if (info.name) o.fieldSelector = [o.fieldSelector, `metadata.name=${info.name}`].filter(Boolean).join(',');
      return watchResponse(registry, r, ns, o, accept);
    }
    case 'create': {
      checkWriteContentType(req.headers['content-type']);
      return respond(await registry.create(r, ns, decodeObject(req.body, req.headers['content-type']), ctx), 201);
    }
    case 'update': {
      checkWriteContentType(req.headers['content-type']);
      return respond(await registry.update(r, ns, info.name!, decodeObject(req.body, req.headers['content-type']), ctx));
    }
    case 'patch': {
      const patch = patchRequest(req);
      const existed = patch.type !== 'apply' || (await registry.get(r, ns, info.name!).then(() => true, () => false));
      return respond(await registry.patch(r, ns, info.name!, patch, ctx), existed ? 200 : 201);
    }
    case 'delete': {
      const body = decodeOptionalBody(req.body, req.headers['content-type']);
      return respond(await registry.delete(r, ns, info.name!, deleteOptions(req.query, body), withBodyDryRun(ctx, body)));
    }
    case 'deletecollection': {
      const body = decodeOptionalBody(req.body, req.headers['content-type']);
      // kube-apiserver answers with the list of what it deleted
      return ok(await registry.deleteCollection(r, ns, listOptions(req.query), deleteOptions(req.query, body), withBodyDryRun(ctx, body)));
    }
    default:
      throw errors.methodNotAllowed(`the server does not allow this method on the requested resource`);
  }
}

export function patchRequest(req: ApiRequest): PatchRequest {
  const ct = (req.headers['content-type'] ?? '').split(';')[0].trim();
  const type = patchContentTypes[ct];
  if (!type) throw errors.unsupportedMediaType(ct || 'none');
  const patch = type === 'apply' ? decodeYamlOrJson(req.body) : decodeJson(req.body);
  const force = req.query.get('force') === 'true';
  return { type, patch, force };
}

/**
 * `<resource>/<subresource>` through the storage the resource declared for it (registry/subresource.ts):
 * the body is decoded as the verb needs, and the answer shaped; nothing here names a resource.
 */
async function handleSubresource(registry: Registry, r: ServedResource, info: ResourceRequestInfo, req: ApiRequest): Promise<ApiResponse> {
  const ns = r.definition.namespaced ? info.namespace : undefined;
  const name = info.name!;
  const sub = info.subresource!;
  const ctx = requestContext(req, req.user);
  if ((info.verb === 'create' || info.verb === 'update') && ctx.fieldValidation !== 'Ignore') ctx.duplicateFields = jsonDuplicateFields(req.body, req.headers['content-type']);
  const verb = info.verb;
  if (!isSubresourceVerb(verb) || !registry.servesSubresource(r, sub, verb)) throw errors.notFound(`${r.definition.plural}/${sub}`, name, r.definition.group);
  const answer = await registry.callSubresource(r, sub, ns, name, ctx, subresourceCall(verb, req));
  const code = answer.code ?? 200;
  if (answer.stream) return { code, watch: answer.stream, contentType: answer.contentType };
  if (answer.text !== undefined) return { code, text: answer.text, contentType: answer.contentType };
  return answer.warnings ? { code, warnings: answer.warnings, body: answer.object } : { code, body: answer.object };
}

function subresourceCall(verb: SubresourceVerb, req: ApiRequest): SubresourceCall {
  if (verb === 'get') return { verb, options: Object.fromEntries(req.query) };
  if (verb === 'patch') return { verb, patch: patchRequest(req) };
  return { verb, body: decodeObject(req.body, req.headers['content-type']) };
}
