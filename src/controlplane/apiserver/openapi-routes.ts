/** `/openapi/v3` index and per-group-version documents, cached until the resource table changes. */
import { openApiV3Document, openApiV3Index, hashDocument } from '../openapi/index.js';
import type { ResourceTable } from '../registry/resource-table.js';
import type { ApiResponse } from './types.js';

interface Cache { version: number; docs: Map<string, { doc: object; hash: string }>; index: object }

export class OpenApiRoutes {
  private cache?: Cache;

  constructor(private readonly table: ResourceTable) {}

  private build(): Cache {
    if (this.cache && this.cache.version === this.table.version) return this.cache;
    const docs = new Map<string, { doc: object; hash: string }>();
    for (const [group, versions] of this.table.groups()) {
      for (const [version, resources] of versions) {
        const path = group ? `apis/${group}/${version}` : `api/${version}`;
        const doc = openApiV3Document({
          groupVersion: group ? `${group}/${version}` : version,
          resources: resources.map((r) => ({ definition: r.definition, schema: r.schema })),
        });
        docs.set(path, { doc, hash: hashDocument(doc) });
      }
    }
    const index = openApiV3Index([...docs].map(([path, { hash }]) => ({ path, hash })));
    this.cache = { version: this.table.version, docs, index };
    return this.cache;
  }

  handle(path: string): ApiResponse | undefined {
    if (path === '/openapi/v3' || path === '/openapi/v3/') return { code: 200, body: this.build().index };
    if (!path.startsWith('/openapi/v3/')) return undefined;
    const entry = this.build().docs.get(path.slice('/openapi/v3/'.length));
    if (!entry) return undefined;
    return { code: 200, body: entry.doc, headers: { etag: `"${entry.hash}"`, 'cache-control': 'public, immutable' } };
  }
}
