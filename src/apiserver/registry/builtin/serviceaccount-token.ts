/**
 * serviceaccounts/token: TokenRequest (`kubectl create token`), kube's TokenREST
 * (docs/design/authorization.md §8). The ServiceAccount and any bound Pod or Secret must exist (and
 * match a given uid); the token itself is minted by the issuer the server hands in, so the registry
 * holds no key.
 */
import type { KObject } from '../../../api/meta.js';
import { errors, field, StatusError } from '../../../machinery/errors.js';
import type { SubresourceStorage, SubresourceTarget } from '../subresource.js';
import { timestamp } from '../core.js';
import { objectKey } from '../keys.js';

export interface TokenIssuer {
  apiAudiences: string[];
  issue(claims: {
    namespace: string;
    serviceAccount: { name: string; uid: string };
    audiences: string[];
    expirationSeconds: number;
    bound?: { kind: 'Pod' | 'Secret' | 'Node'; object: { name: string; uid: string }; node?: { name: string; uid: string } };
  }): Promise<{ token: string; expirationTimestamp: Date }>;
}

interface BoundObjectRef { kind?: string; apiVersion?: string; name?: string; uid?: string }

const minExpirationSeconds = 600;
const maxExpirationSeconds = 2 ** 32;

export function serviceAccountTokenSubresource(issuer: TokenIssuer): SubresourceStorage {
  return {
    async create(target, body) {
      // Mutating admission sees the TokenRequest first, as kube's create handler admits it (NodeRestriction, §17).
      const { core, resource, namespace, name, ctx } = target;
      await core.admission.mutate({ operation: 'CREATE', resource, subresource: 'token', namespace, name, object: body, ctx });
      const spec = { ...((body.spec ?? {}) as { audiences?: string[]; expirationSeconds?: number; boundObjectRef?: BoundObjectRef | null }) };
      spec.expirationSeconds ??= 3600;
      if (!spec.audiences?.length) spec.audiences = issuer.apiAudiences;
      const sa = stored(target, '', 'serviceaccounts', target.name); // kube looks the ServiceAccount up before validating
      validateExpiration(spec.expirationSeconds);
      const bound = spec.boundObjectRef ? boundObject(target, spec.boundObjectRef) : undefined;
      const issued = await issuer.issue({
        namespace: target.namespace ?? '', serviceAccount: { name: target.name, uid: sa.metadata.uid ?? '' },
        audiences: spec.audiences, expirationSeconds: spec.expirationSeconds, bound,
      });
      const answer: KObject = {
        kind: 'TokenRequest', apiVersion: 'authentication.k8s.io/v1',
        metadata: { name: target.name, namespace: target.namespace, creationTimestamp: timestamp(target.core.now()) },
        spec: { ...spec, boundObjectRef: spec.boundObjectRef ?? null },
        status: { token: issued.token, expirationTimestamp: timestamp(issued.expirationTimestamp) },
      };
      return { code: 201, object: answer };
    },
  };
}

function validateExpiration(seconds: number): void {
  const errs = [];
  if (seconds < minExpirationSeconds) errs.push(field.invalid('spec.expirationSeconds', seconds, 'may not specify a duration less than 10 minutes'));
  if (seconds > maxExpirationSeconds) errs.push(field.invalid('spec.expirationSeconds', seconds, 'may not specify a duration larger than 2^32 seconds'));
  if (errs.length) throw errors.invalid('TokenRequest', '', 'authentication.k8s.io', errs);
}

/** The stored object or kube's 404 for it. */
function stored(target: SubresourceTarget, group: string, plural: string, name: string, namespace = target.namespace): KObject {
  const r = target.core.table.lookup(group, 'v1', plural)!;
  const object = target.core.store.get(objectKey(r, r.definition.namespaced ? namespace : undefined, name))?.object;
  if (!object) throw errors.notFound(plural, name, group);
  return object;
}

/** The Pod, Secret or Node a token is bound to, checked against the uid the request gives. */
function boundObject(target: SubresourceTarget, ref: BoundObjectRef): NonNullable<Parameters<TokenIssuer['issue']>[0]['bound']> {
  const plural = ({ Pod: 'pods', Secret: 'secrets', Node: 'nodes' } as Record<string, string>)[ref.kind ?? ''];
  if (!plural || (ref.apiVersion ?? 'v1') !== 'v1') {
    throw errors.badRequest(`cannot bind token to object of type ${ref.apiVersion ?? ''}, Kind=${ref.kind ?? ''}`);
  }
  const object = stored(target, '', plural, ref.name ?? '');
  const uid = object.metadata.uid ?? '';
  if (ref.uid && ref.uid !== uid) {
    throw new StatusError(409, 'Conflict', `the UID in the bound object reference (${ref.uid}) does not match the UID in record. The object might have been deleted and then recreated`);
  }
  const kind = ref.kind as 'Pod' | 'Secret' | 'Node';
  const nodeName = kind === 'Pod' ? (object.spec as { nodeName?: string } | undefined)?.nodeName : undefined;
  const node = nodeName ? target.core.store.get(objectKey(target.core.table.lookup('', 'v1', 'nodes')!, undefined, nodeName))?.object : undefined;
  return { kind, object: { name: ref.name ?? '', uid }, ...(node ? { node: { name: nodeName!, uid: node.metadata.uid ?? '' } } : {}) };
}
