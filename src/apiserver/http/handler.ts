/**
 * The API handler: one entry point for HTTP and in-process requests. Routes non-resource paths
 * (version, health, discovery, OpenAPI), then resource requests to the registry, and turns every
 * failure into a Status response.
 */
import { errors, StatusError } from '../../machinery/errors.js';
import type { Registry } from '../registry/registry.js';
import { parseRequestInfo, type ResourceRequestInfo } from './request-info.js';
import type { ServedResource } from '../registry/served-resource.js';
import type { ApiRequest, ApiResponse, RequestHandler } from '../../api/request.js';
import { apiGroupList, apiResourceList, apiVersions } from './discovery.js';
import { handleResource } from './resource-handler.js';
import { OpenApiRoutes } from './openapi-routes.js';
import { metrics } from './metrics.js';
import { type ReviewHandler } from './reviews.js';
import { serveResourceMetrics } from './resource-metrics.js';
import type { RequestGate } from '../authz/request-gate.js';
import { decodeObject } from './body.js';
import { logger } from '../../machinery/log.js';
import { prefersProtobuf } from './query.js';
import { encodeProtobufObject } from './protobuf/encode.js';
import { PROTOBUF_CONTENT_TYPE } from './protobuf/decode.js';

const log = logger('apiserver');

export const serverVersion = {
  major: '1', minor: '32', gitVersion: 'v1.32.4-kruise', gitCommit: '0000000000000000000000000000000000000000', gitTreeState: 'clean',
  buildDate: '2026-11-01T00:00:00Z', goVersion: 'go1.23.0', compiler: 'gc', platform: 'linux/amd64',
};

export interface HandlerOptions {
  registry: Registry;
  /** host:port clients reach the server on (for /api serverAddressByClientCIDRs). */
  serverAddress: () => string;
  /** Why the store cannot persist writes right now (readyz fails meanwhile), or undefined. */
  storeFailure?: () => string | undefined;
  /** Impersonation and authorization (docs/design/authorization.md §1). */
  gate: RequestGate;
  /** Create-only reviews answered by the server, by `<group>/<plural>`. */
  reviews: ReadonlyMap<string, ReviewHandler>;
}

export class ApiHandler implements RequestHandler {
  private readonly openapi: OpenApiRoutes;

  constructor(private readonly options: HandlerOptions) {
    this.openapi = new OpenApiRoutes(options.registry.table);
  }

  async handle(req: ApiRequest): Promise<ApiResponse> {
    const started = process.hrtime.bigint();
    let info: ReturnType<typeof parseRequestInfo>;
    try {
      info = parseRequestInfo(req.method, req.path, req.query);
    } catch (e) {
      return errorResponse(e); // a malformed escape in the path
    }
    let response: ApiResponse;
    try {
      const user = this.admit(req);
      response = await this.route(user === req.user ? req : { ...req, user }, info);
    } catch (e) {
      response = errorResponse(e);
    }
    if (response.body !== undefined && prefersProtobuf(req.headers['accept'])) response = asProtobuf(response);
    const labels = info.isResource
      ? { verb: info.verb, group: info.group, resource: info.resource, subresource: info.subresource ?? '' }
      : { verb: info.verb, group: '', resource: '', subresource: '' };
    metrics.requests.inc({ ...labels, code: String(response.code) });
    if (!response.watch) metrics.latency.observe({ verb: labels.verb, group: labels.group, resource: labels.resource }, Number(process.hrtime.bigint() - started) / 1e9);
    return response;
  }

  /** The user the request runs as once impersonation is applied; throws a 403 when it may not do what it asks. */
  admit(req: ApiRequest): ApiRequest['user'] {
    return this.options.gate.admit(req);
  }

  private async route(req: ApiRequest, info: ReturnType<typeof parseRequestInfo>): Promise<ApiResponse> {
    if (!info.isResource) return this.nonResource(req);
    const table = this.options.registry.table;
    const r = table.lookup(info.group, info.version, info.resource);
    if (!r) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
    if (!r.definition.namespaced && info.namespace) throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
    if (r.definition.group === 'metrics.k8s.io') return serveResourceMetrics(this.options.registry, info, req.query, Date.now());
    if (!info.subresource && !r.definition.verbs.includes(info.verb)) throw new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {});
    if (r.definition.group === '' && r.definition.plural === 'bindings') return this.bindByName(r, info, req);
    const review = info.verb === 'create' && !info.subresource ? this.options.reviews.get(`${r.definition.group}/${r.definition.plural}`) : undefined;
    if (review) return { code: 201, body: await review(req.user, info, decodeObject(req.body, req.headers['content-type'])) };
    return handleResource(this.options.registry, r, info, req);
  }

  /** POST .../bindings binds the pod the Binding names, exactly as pods/<name>/binding does. */
  private bindByName(bindings: ServedResource, info: ResourceRequestInfo, req: ApiRequest): Promise<ApiResponse> {
    const name = decodeObject(req.body, req.headers['content-type']).metadata?.name;
    const pods = this.options.registry.table.lookup('', 'v1', 'pods');
    if (!pods || !name) throw errors.badRequest(`name is required for ${bindings.definition.plural}`);
    return handleResource(this.options.registry, pods, { ...info, resource: 'pods', name, subresource: 'binding' }, req);
  }

  private nonResource(req: ApiRequest): ApiResponse {
    const path = req.path.replace(/\/+$/, '') || '/';
    if (req.method !== 'GET' && req.method !== 'HEAD') throw errors.methodNotAllowed('the server does not allow this method on the requested resource');
    const table = this.options.registry.table;
    if (path === '/version') return { code: 200, body: serverVersion };
    if (path === '/healthz' || path === '/livez' || path === '/readyz' || /^\/(healthz|livez|readyz)\//.test(path)) {
      const failing = path.startsWith('/readyz') ? this.options.storeFailure?.() : undefined;
      // The reason is withheld as kube-apiserver withholds its etcd check's; the server log has it.
      return failing === undefined ? { code: 200, text: 'ok', contentType: 'text/plain; charset=utf-8' } : { code: 500, text: '[-]store failed: reason withheld\nreadyz check failed\n', contentType: 'text/plain; charset=utf-8' };
    }
    if (path === '/api') return { code: 200, body: apiVersions(this.options.serverAddress()) };
    if (path === '/apis') return { code: 200, body: apiGroupList(table) };
    const gv = /^\/(?:api\/(v1)|apis\/([^/]+)\/([^/]+))$/.exec(path);
    if (gv) {
      const doc = gv[1] ? apiResourceList(table, '', gv[1]) : apiResourceList(table, gv[2], gv[3]);
      if (doc) return { code: 200, body: doc };
    }
    const apiGroup = /^\/apis\/([^/]+)$/.exec(path);
    if (apiGroup) {
      const group = (apiGroupList(table).groups as { name: string }[]).find((g) => g.name === apiGroup[1]);
      if (group) return { code: 200, body: { kind: 'APIGroup', apiVersion: 'v1', ...group } };
    }
    const openapi = this.openapi.handle(path);
    if (openapi) return openapi;
    throw new StatusError(404, 'NotFound', 'the server could not find the requested resource', {});
  }
}

/** A built-in kind (or a Status) answered in protobuf; anything else stays JSON, as kube answers custom resources. */
function asProtobuf(response: ApiResponse): ApiResponse {
  const raw = encodeProtobufObject(response.body);
  if (!raw) return response;
  return { ...response, body: undefined, raw, contentType: PROTOBUF_CONTENT_TYPE };
}

export function errorResponse(e: unknown): ApiResponse {
  const err = e instanceof StatusError ? e : errors.internal(e instanceof Error ? e.message : String(e));
  if (!(e instanceof StatusError)) log.error({ err: e }, 'internal error');
  return { code: err.code, body: err.toStatus(), headers: err.headers };
}
