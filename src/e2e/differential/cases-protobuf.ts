/**
 * Protobuf responses (docs/design/performance.md §8): what client-go's typed clients receive when they
 * send `Accept: application/vnd.kubernetes.protobuf,application/json`. Each body is decoded with the
 * generated wire descriptor and compared with the JSON answer for the same object on the same server.
 */
import https from 'node:https';
import { isDeepStrictEqual } from 'node:util';
import { decodeProtobufObject } from '../../apiserver/http/protobuf/decode.js';
import { splitWatchFrames } from '../../apiserver/http/protobuf/encode.js';
import type { ApiResponse, DiffApi, Json, ServerAccess } from './api.js';
import { configMap, must, paths, pod, query, widget, type DiffCase } from './case-kit.js';
import { normalizeObject, statusOf } from './normalize.js';

const protobufAccept = { accept: 'application/vnd.kubernetes.protobuf,application/json' };
const protobufBody = { 'content-type': 'application/vnd.kubernetes.protobuf' };

/** The content type's media type, and the body decoded from protobuf when it is protobuf. */
function decoded(res: ApiResponse): { contentType: string; object: Json } {
  const contentType = res.contentType.split(';')[0]!;
  if (contentType !== 'application/vnd.kubernetes.protobuf') return { contentType, object: res.body };
  return { contentType, object: decodeProtobufObject(res.raw).object };
}

/**
 * A list's own resourceVersion is the store's newest, which other cases move between two GETs; its
 * items and every single object are compared whole. Items carry no kind in JSON, so neither side's do.
 */
function comparable(o: Json): Json {
  if (!o.items) return o;
  const { resourceVersion: _rv, ...metadata } = o.metadata ?? {};
  return { ...o, metadata, items: o.items.map(({ kind: _k, apiVersion: _a, ...rest }: Json) => rest) };
}

/** The same object fetched as protobuf and as JSON, retried while a write in between makes them differ. */
async function both(api: DiffApi, path: string): Promise<{ contentType: string; sameAsJson: boolean; object: Json }> {
  const fetch = async () => ({ pb: decoded(await api.request('GET', path, undefined, protobufAccept)), json: (await api.request('GET', path)).body });
  let { pb, json } = await fetch();
  for (let i = 0; i < 10 && !isDeepStrictEqual(comparable(pb.object), comparable(json)); i++) ({ pb, json } = await fetch());
  const sameAsJson = isDeepStrictEqual(comparable(pb.object), comparable(json));
  return { contentType: pb.contentType, sameAsJson, object: normalizeObject(pb.object, { keepGoZeroValues: true }) };
}

/** The frames of a protobuf watch stream, decoded; the real server's kube-root-ca.crt is left out. */
function framesOf(bytes: Buffer): Json[] {
  return splitWatchFrames(bytes)
    .map((f) => ({ type: f.type, object: decodeProtobufObject(f.raw).object as Json }))
    .map((e) => ({ type: e.type, kind: e.object.kind, name: e.object.metadata?.name }))
    .filter((e) => e.name !== 'kube-root-ca.crt');
}

/** Opens a protobuf watch, runs `act`, and reads frames until `count` arrived (or 5 s passed). */
function watchFrames(access: ServerAccess, path: string, count: number, act: () => Promise<unknown>): Promise<{ contentType: string; events: Json[] }> {
  const url = new URL(access.url);
  return new Promise((resolve, reject) => {
    const req = https.request({ host: url.hostname, port: url.port, path, ca: access.caPem, headers: { authorization: `Bearer ${access.token}`, ...protobufAccept } }, (res) => {
      let bytes = Buffer.alloc(0);
      const finish = () => {
        clearTimeout(timer);
        req.destroy();
        resolve({ contentType: String(res.headers['content-type']), events: framesOf(bytes) });
      };
      const timer = setTimeout(finish, 5_000);
      res.on('data', (c: Buffer) => {
        bytes = Buffer.concat([bytes, c]);
        if (framesOf(bytes).length >= count) finish();
      });
      res.on('error', () => undefined);
      act().catch(reject);
    });
    req.on('error', reject);
    req.end();
  });
}

export const protobufCases: DiffCase[] = [
  {
    name: 'protobuf: get, list, create and patch answers decode to the JSON answers',
    needsServiceAccount: true,
    async run(api, { ns }) {
      const created = decoded(must(await api.request('POST', paths.configMaps(ns), configMap('cm', { a: '1' }), protobufAccept), 'create'));
      must(await api.request('POST', paths.pods(ns), pod('p')), 'pod');
      const patched = decoded(must(await api.request('PATCH', paths.pods(ns, 'p'), { metadata: { labels: { x: 'y' } } }, { ...protobufAccept, 'content-type': 'application/merge-patch+json' }), 'patch'));
      return {
        created: { contentType: created.contentType, object: normalizeObject(created.object, { keepGoZeroValues: true }) },
        patched: { contentType: patched.contentType, labels: patched.object.metadata.labels },
        // The pod's whole object differs by the service-account volume the real server injects; not a wire matter.
        pod: (await both(api, paths.pods(ns, 'p'))).sameAsJson,
        configMap: await both(api, paths.configMaps(ns, 'cm')),
        list: await both(api, `${paths.configMaps(ns)}${query({ labelSelector: 'a=1' })}`),
      };
    },
  },
  {
    name: 'protobuf: errors are Status messages; custom resources stay JSON',
    async run(api, { ns }) {
      must(await api.request('POST', paths.widgets(ns), widget('w')), 'widget');
      const missing = await api.request('GET', paths.configMaps(ns, 'absent'), undefined, protobufAccept);
      const notFound = decoded(missing);
      const custom = await api.request('GET', paths.widgets(ns, 'w'), undefined, protobufAccept);
      const badBody = await api.request('POST', paths.configMaps(ns), 'k8s\0garbage', { ...protobufAccept, ...protobufBody });
      return {
        notFound: { http: missing.status, contentType: notFound.contentType, status: statusOf({ ...missing, body: notFound.object }) },
        custom: { http: custom.status, contentType: custom.contentType.split(';')[0], kind: custom.body?.kind },
        badBody: { http: badBody.status, contentType: badBody.contentType.split(';')[0] },
      };
    },
  },
  {
    name: 'protobuf: a watch streams length-prefixed WatchEvent frames',
    async run(api, { ns }) {
      const rv = must(await api.request('GET', paths.configMaps(ns)), 'list').body.metadata.resourceVersion;
      return watchFrames(api.access, `${paths.configMaps(ns)}${query({ watch: 1, resourceVersion: rv })}`, 3, async () => {
        must(await api.request('POST', paths.configMaps(ns), configMap('w1')), 'create');
        must(await api.request('PATCH', paths.configMaps(ns, 'w1'), { data: { k: 'v2' } }, { 'content-type': 'application/merge-patch+json' }), 'patch');
        must(await api.request('DELETE', paths.configMaps(ns, 'w1')), 'delete');
      });
    },
  },
];
