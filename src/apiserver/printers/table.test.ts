import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../api/meta.js';
import { buildTable, defaultPrinter } from './table.js';
import { podPrinter } from './pods.js';

const now = new Date('2024-05-01T12:00:00Z');
const cm: KObject = {
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name: 'cfg', namespace: 'default', resourceVersion: '42', labels: { app: 'x' }, creationTimestamp: '2024-05-01T11:59:30Z' },
  data: { a: '1' },
};

describe('buildTable', () => {
  test('Table shape with PartialObjectMetadata rows by default', () => {
    const table = buildTable(defaultPrinter, [cm], { includeObject: 'Metadata', now, resourceVersion: '50', continue: 'tok', withColumns: true });
    assert.equal(table.kind, 'Table');
    assert.equal(table.apiVersion, 'meta.k8s.io/v1');
    assert.deepEqual(table.metadata, { resourceVersion: '50', continue: 'tok' });
    assert.deepEqual(table.columnDefinitions, defaultPrinter.columns);
    assert.deepEqual(table.rows, [
      {
        cells: ['cfg', '2024-05-01T11:59:30Z'],
        object: { kind: 'PartialObjectMetadata', apiVersion: 'meta.k8s.io/v1', metadata: cm.metadata },
      },
    ]);
  });

  test('includeObject=Object embeds the full object, None omits it', () => {
    const full = buildTable(defaultPrinter, [cm], { includeObject: 'Object', now, withColumns: true });
    assert.deepEqual((full.rows as { object: unknown }[])[0].object, cm);
    assert.deepEqual(full.metadata, {});
    const none = buildTable(defaultPrinter, [cm], { includeObject: 'None', now, withColumns: true });
    assert.equal('object' in (none.rows as object[])[0], false);
  });

  test('watch events after the first carry no column definitions', () => {
    const t = buildTable(defaultPrinter, [cm], { includeObject: 'Metadata', now, withColumns: false });
    assert.equal(t.columnDefinitions, null);
    assert.equal((t.rows as unknown[]).length, 1);
  });

  test('column definitions have the wire shape, and rows carry printer conditions', () => {
    const pod: KObject = { apiVersion: 'v1', kind: 'Pod', metadata: { name: 'p' }, spec: { containers: [] }, status: { phase: 'Succeeded' } };
    const t = buildTable(podPrinter, [pod], { includeObject: 'None', now, withColumns: true });
    const cols = t.columnDefinitions as Record<string, unknown>[];
    assert.deepEqual(Object.keys(cols[0]).sort(), ['description', 'format', 'name', 'priority', 'type']);
    const rows = t.rows as { cells: unknown[]; conditions?: { type: string }[] }[];
    assert.equal(rows[0].cells.length, cols.length);
    assert.equal(rows[0].conditions?.[0].type, 'Completed');
  });

  test('an empty list is a Table with no rows', () => {
    const t = buildTable(defaultPrinter, [], { includeObject: 'Metadata', now, resourceVersion: '7', withColumns: true });
    assert.deepEqual(t.rows, []);
  });
});
