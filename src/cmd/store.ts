/**
 * `kruise store verify|repair DIR`: check a store directory that refuses to start, and cut away its
 * damage (docs/design/storage.md §11). DIR is the store itself or a `kruise up` data directory.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { repairStore, verifyStore, type VerifyReport } from '../apiserver/storage/repair.js';

export async function runStoreVerify(dir: string): Promise<void> {
  const report = await verifyStore(storeDir(dir));
  console.log(describe(report));
  if (report.damage) process.exitCode = 1;
}

export async function runStoreRepair(dir: string): Promise<void> {
  const { changes, report } = await repairStore(storeDir(dir));
  for (const change of changes) console.log(`repaired: ${change}`);
  if (changes.length === 0) console.log('nothing to repair');
  console.log(describe(report));
}

/** A `kruise up` data directory holds its store in `store/`. */
function storeDir(dir: string): string {
  const nested = path.join(dir, 'store');
  const resolved = existsSync(path.join(nested, 'FORMAT')) || existsSync(path.join(nested, 'snapshot.json')) ? nested : dir;
  if (!existsSync(resolved)) throw new Error(`no store at ${dir}`);
  return resolved;
}

function describe(report: VerifyReport): string {
  if (report.damage) return `damaged: ${report.damage.message}`;
  const s = report.scanned!;
  const torn = s.torn ? `; a record torn by a crash (${s.torn.bytes} bytes at byte ${s.torn.offset} of ${s.walFile}) is cut off at the next start` : '';
  const layout = s.checksummed ? '' : ' (older layout without checksums: the next start rewrites it with them)';
  return `ok: revision ${s.revision}, ${s.objects} objects, snapshot at revision ${s.snapshotRevision}, ${s.records} WAL records after it${torn}${layout}`;
}
