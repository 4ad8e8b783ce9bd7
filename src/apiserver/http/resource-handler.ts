/** Serves one resource request: picks the registry verb, decodes the body, shapes the response. */
import type { KObject } from '../../api/meta.js';
import { errors } from '../../machinery/errors.js';
import type { Registry } from '../registry/registry.js';
import type { ServedResource } from '../registry/served-resource.js';
import { patchContentTypes, type PatchRequest } from '../registry/patch.js';
import type { ResourceRequestInfo } from './request-info.js';
import type { ApiRequest, ApiResponse } from '../../api/request.js';
import { acceptInfo, deleteOptions, listOptions, requestContext } from './query.js';
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
      return respond(await registry.delete(r, ns, info.name!, deleteOptions(req.query, body), ctx));
    }
    case 'deletecollection': {
      const body = decodeOptionalBody(req.body, req.headers['content-type']);
      // kube-apiserver answers with the list of what it deleted
      return ok(await registry.deleteCollection(r, ns, listOptions(req.query), deleteOptions(req.query, body), ctx));
    }
    default:
      throw errors.methodNotAllowed(`the server does not allow this method on the requested resource`);
  }
}

export function patchRequest(req: ApiRequest, subresource?: string): PatchRequest {
  const ct = (req.headers['content-type'] ?? '').split(';')[0].trim();
  const type = patchContentTypes[ct];
  if (!type) throw errors.unsupportedMediaType(ct || 'none');
  const patch = type === 'apply' ? decodeYamlOrJson(req.body) : decodeJson(req.body);
  const force = req.query.get('force') === 'true';
  return { type, patch, force, subresource };
}

async function handleSubresource(registry: Registry, r: ServedResource, info: ResourceRequestInfo, req: ApiRequest): Promise<ApiResponse> {
  const ns = r.definition.namespaced ? info.namespace : undefined;
  const name = info.name!;
  const sub = info.subresource!;
  const ctx = requestContext(req, req.user);
  if ((info.verb === 'create' || info.verb === 'update') && ctx.fieldValidation !== 'Ignore') ctx.duplicateFields = jsonDuplicateFields(req.body, req.headers['content-type']);
  const d = r.definition;
  const notFound = () => errors.notFound(`${d.plural}/${sub}`, name, d.group);
  if (sub === 'status' && d.subresources?.status) {
    if (info.verb === 'get') return ok(await registry.get(r, ns, name));
    if (info.verb === 'update') return { code: 200, warnings: ctx.warnings, body: await registry.update(r, ns, name, decodeObject(req.body, req.headers['content-type']), ctx, 'status') };
    if (info.verb === 'patch') return { code: 200, warnings: ctx.warnings, body: await registry.patch(r, ns, name, patchRequest(req, 'status'), ctx) };
  }
  if (sub === 'scale' && d.subresources?.scale) {
    if (info.verb === 'get') return ok(await registry.getScale(r, ns, name));
    if (info.verb === 'update') return ok(await registry.writeScale(r, ns, name, { scale: decodeObject(req.body, req.headers['content-type']) }, ctx));
    if (info.verb === 'patch') return ok(await registry.writeScale(r, ns, name, { patch: patchRequest(req) }, ctx));
  }
  const isPods = d.group === '' && d.plural === 'pods';
  if (isPods && sub === 'binding' && info.verb === 'create') {
    await registry.bind(r, ns!, name, decodeObject(req.body, req.headers['content-type']), ctx);
    return ok({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, 201);
  }
  if (isPods && sub === 'eviction' && info.verb === 'create') {
    await registry.evict(r, ns!, name, decodeObject(req.body, req.headers['content-type']), ctx);
    return ok({ kind: 'Status', apiVersion: 'v1', metadata: {}, status: 'Success', code: 201 }, 201);
  }
  if (isPods && sub === 'log' && info.verb === 'get') {
    await registry.get(r, ns, name);
    return { code: 200, text: '', contentType: 'text/plain' };
  }
  if (d.group === '' && d.plural === 'namespaces' && sub === 'finalize' && info.verb === 'update') {
    return ok(await registry.finalizeNamespace(r, name, decodeObject(req.body, req.headers['content-type'])));
  }
  throw notFound();
}
