/**
 * `/openapi/v3` index and per-group-version documents, and `/openapi/v2` as protobuf (kubectl 1.27/1.28
 * need it for client-side validation), cached until the resource table changes.
 */
import { encodeOpenApiV2, hashDocument, openApiV2Document, openApiV2ProtobufContentType, openApiV3Document, openApiV3Index } from '../openapi/index.js';
import type { ResourceTable } from '../registry/resource-table.js';
import type { ServedResource } from '../registry/served-resource.js';
import type { ApiResponse } from '../../api/request.js';

interface Cache { version: number; docs: Map<string, { doc: object; hash: string }>; index: object; v2?: Buffer }

function inputs(groupVersion: string, resources: ServedResource[]) {
  return { groupVersion, resources: resources.map((r) => ({ definition: r.definition, schema: r.schema, builtin: !r.schemaIsAuthoritative })) };
}

export class OpenApiRoutes {
  private cache?: Cache;

  constructor(private readonly table: ResourceTable) {}

  private build(): Cache {
    if (this.cache && this.cache.version === this.table.version) return this.cache;
    const docs = new Map<string, { doc: object; hash: string }>();
    for (const [group, versions] of this.table.groups()) {
      for (const [version, resources] of versions) {
        const path = group ? `apis/${group}/${version}` : `api/${version}`;
        const doc = openApiV3Document(inputs(group ? `${group}/${version}` : version, resources));
        docs.set(path, { doc, hash: hashDocument(doc) });
      }
    }
    const index = openApiV3Index([...docs].map(([path, { hash }]) => ({ path, hash })));
    this.cache = { version: this.table.version, docs, index };
    return this.cache;
  }

  private v2(): Buffer {
    const cache = this.build();
    if (!cache.v2) {
      const all: ReturnType<typeof inputs>[] = [];
      for (const [group, versions] of this.table.groups()) {
        for (const [version, resources] of versions) all.push(inputs(group ? `${group}/${version}` : version, resources));
      }
      cache.v2 = encodeOpenApiV2(openApiV2Document(all));
    }
    return cache.v2;
  }

  handle(path: string): ApiResponse | undefined {
    if (path === '/openapi/v2') return { code: 200, raw: this.v2(), contentType: openApiV2ProtobufContentType };
    if (path === '/openapi/v3' || path === '/openapi/v3/') return { code: 200, body: this.build().index };
    if (!path.startsWith('/openapi/v3/')) return undefined;
    const entry = this.build().docs.get(path.slice('/openapi/v3/'.length));
    if (!entry) return undefined;
    return { code: 200, body: entry.doc, headers: { etag: `"${entry.hash}"`, 'cache-control': 'public, immutable' } };
  }
}
