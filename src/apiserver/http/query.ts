/** Query-string and Accept-header options of resource requests. */
import { errors } from '../../machinery/errors.js';
import type { UserInfo, ApiRequest } from '../../api/request.js';
import type { FieldValidation, RequestContext } from '../registry/context.js';
import type { ListOptions } from '../registry/read.js';
import type { DeleteOptions, PropagationPolicy } from '../registry/delete.js';

export function requestContext(req: ApiRequest, user: UserInfo): RequestContext {
  const q = req.query;
  const dryRun = q.getAll('dryRun');
  if (dryRun.some((d) => d !== 'All')) throw errors.badRequest(`dryRun: Unsupported value: "${dryRun.join(',')}": supported values: "All"`);
  const fv = q.get('fieldValidation') ?? 'Warn';
  if (!['Ignore', 'Warn', 'Strict'].includes(fv)) {
    throw errors.badRequest(`fieldValidation: Unsupported value: "${fv}": supported values: "Ignore", "Strict", "Warn"`);
  }
  const fieldManager = q.get('fieldManager') ?? undefined;
  if (fieldManager && fieldManager.length > 128) throw errors.badRequest('fieldManager: Too long: may not be longer than 128');
  return { user, dryRun: dryRun.length > 0, fieldManager, fieldValidation: fv as FieldValidation, warnings: [], userAgent: req.headers['user-agent'] };
}

function intParam(q: URLSearchParams, name: string): number | undefined {
  const v = q.get(name);
  if (v === null || v === '') return undefined;
  const n = Number(v);
  if (!Number.isInteger(n)) throw errors.badRequest(`${name}: invalid value ${JSON.stringify(v)}: must be an integer`);
  return n;
}

export function listOptions(q: URLSearchParams): ListOptions & { timeoutSeconds?: number; allowWatchBookmarks: boolean; sendInitialEvents?: boolean } {
  return {
    labelSelector: q.get('labelSelector') ?? undefined,
    fieldSelector: q.get('fieldSelector') ?? undefined,
    limit: intParam(q, 'limit'),
    continue: q.get('continue') ?? undefined,
    resourceVersion: q.get('resourceVersion') ?? undefined,
    resourceVersionMatch: q.get('resourceVersionMatch') ?? undefined,
    timeoutSeconds: intParam(q, 'timeoutSeconds'),
    allowWatchBookmarks: q.get('allowWatchBookmarks') === 'true' || q.get('allowWatchBookmarks') === '1',
    sendInitialEvents: q.get('sendInitialEvents') === 'true' ? true : undefined,
  };
}

const policies = ['Orphan', 'Background', 'Foreground'];

/** DeleteOptions from the body (kubectl sends one) merged with query parameters. */
export function deleteOptions(q: URLSearchParams, body: unknown): DeleteOptions {
  const o: DeleteOptions = typeof body === 'object' && body !== null ? { ...(body as DeleteOptions) } : {};
  const grace = intParam(q, 'gracePeriodSeconds');
  if (grace !== undefined) o.gracePeriodSeconds = grace;
  const policy = q.get('propagationPolicy');
  if (policy) o.propagationPolicy = policy as PropagationPolicy;
  if (o.propagationPolicy && !policies.includes(o.propagationPolicy)) {
    throw errors.invalid('DeleteOptions', '', '', [{ type: 'FieldValueNotSupported', field: 'propagationPolicy', value: o.propagationPolicy, detail: 'supported values: "Foreground", "Background", "Orphan", nil' }]);
  }
  if (q.get('orphanDependents')) o.orphanDependents = q.get('orphanDependents') === 'true';
  return o;
}

export interface AcceptInfo {
  table: boolean;
  /** The client prefers protobuf (client-go's typed clients); answered for built-in kinds only. */
  protobuf: boolean;
  includeObject: 'None' | 'Metadata' | 'Object';
}

export function acceptInfo(req: ApiRequest): AcceptInfo {
  const accept = req.headers['accept'] ?? '';
  const first = accept.split(',')[0] ?? '';
  const table = /as=Table/.test(first) && /g=meta\.k8s\.io/.test(first);
  const io = req.query.get('includeObject');
  return { table, protobuf: !table && prefersProtobuf(accept), includeObject: io === 'None' || io === 'Object' ? io : 'Metadata' };
}

const PROTOBUF = 'application/vnd.kubernetes.protobuf';
const SERVED = new Set([PROTOBUF, 'application/json', 'application/*', '*/*']);

/**
 * Whether the most preferred media type this server can answer is protobuf: the highest q first, ties
 * in the order given, as kube-apiserver's negotiation ranks `application/vnd.kubernetes.protobuf,application/json`.
 */
export function prefersProtobuf(accept: string | undefined): boolean {
  if (!accept || !accept.includes(PROTOBUF)) return false;
  let best: { type: string; q: number } | undefined;
  for (const range of accept.split(',')) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    if (!SERVED.has(type) || params.some((p) => p.startsWith('as='))) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (q > 0 && (!best || q > best.q)) best = { type, q };
  }
  return best?.type === PROTOBUF;
}

/** kubectl sends `--dry-run=server` of a delete as `dryRun: ["All"]` in the DeleteOptions body, not the query. */
export function withBodyDryRun<C extends { dryRun: boolean }>(ctx: C, body: unknown): C {
  const dryRun = (body as { dryRun?: unknown } | undefined)?.dryRun;
  if (ctx.dryRun || !Array.isArray(dryRun) || dryRun.length === 0) return ctx;
  if (dryRun.some((d) => d !== 'All')) throw errors.badRequest(`dryRun: Unsupported value: "${dryRun.join(',')}": supported values: "All"`);
  return { ...ctx, dryRun: true };
}
