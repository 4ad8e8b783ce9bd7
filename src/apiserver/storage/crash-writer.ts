/**
 * Helper for the kill -9 tests in file-store.test.ts and integrity.test.ts:
 *   node --import tsx src/apiserver/storage/crash-writer.ts DIR [snapshotEveryBytes]
 * Opens a file store in DIR and creates objects from 32 concurrent loops as fast as it can,
 * printing `<key> <rv>` for every acknowledged (durable) create, until it is killed.
 */
import { createFileStore } from './file-store.js';

const [dir, snapshotEvery] = process.argv.slice(2);
if (!dir) throw new Error('usage: crash-writer.ts DIR [snapshotEveryBytes]');
const store = await createFileStore({ dir, snapshotEveryBytes: snapshotEvery ? Number(snapshotEvery) : undefined });

let next = 0;
async function writeForever(worker: number): Promise<never> {
  for (;;) {
    const name = `p${process.pid}-w${worker}-${next++}`;
    const key = `/crash/objects/${name}`;
    const stored = await store.create(key, { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name }, data: { payload: 'x'.repeat(200) } });
    process.stdout.write(`${key} ${stored.rv}\n`);
  }
}

await Promise.all(Array.from({ length: 32 }, (_, worker) => writeForever(worker)));
