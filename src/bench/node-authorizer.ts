/**
 * `npm run bench:node-authorizer` (docs/design/authorization.md §17): the CPU time of one Node
 * authorizer decision on a kubelet's Secret `get`, with 100 and with 1,000 pods in the namespace
 * spread over 10 nodes, for a Secret one of the node's pods names (allowed) and one only another
 * node's pod names (refused). The decision is synchronous, so its time is CPU time. Also the
 * CPU time of a pod write to the store with no graph and with the graph following the pods (its upkeep).
 */
import type { KObject } from '../api/meta.js';
import { nodeAuthorizer } from '../apiserver/authz/node-authorizer.js';
import { RbacAuthorizer } from '../apiserver/authz/rbac-authorizer.js';
import { RbacIndex } from '../apiserver/authz/rbac-index.js';
import type { ResourceAttributes } from '../apiserver/authz/attributes.js';
import { builtinServedResources } from '../apiserver/builtin-served.js';
import { objectKey } from '../apiserver/registry/keys.js';
import { RegistryReader } from '../apiserver/registry/reader.js';
import { ResourceTable } from '../apiserver/registry/resource-table.js';
import { createFileStore, type FileStore } from '../apiserver/storage/file-store.js';

const NODES = 10;
const DECISIONS = 20_000;
const WRITES = 5_000;
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

const pod = (ns: string, i: number): KObject => ({
  apiVersion: 'v1', kind: 'Pod', metadata: { name: `p-${i}`, namespace: ns, uid: `uid-${i}` },
  spec: {
    nodeName: `node-${i % NODES}`, serviceAccountName: 'default',
    containers: [{ name: 'c', image: 'x', env: [{ name: 'A', value: 'a' }, { name: 'B', valueFrom: { configMapKeyRef: { name: 'cm', key: 'b' } } }] }],
    volumes: [
      { name: 's', secret: { secretName: `s-${i}` } },
      // what the ServiceAccount admission adds to every pod
      { name: 'kube-api-access', projected: { sources: [{ serviceAccountToken: { path: 'token', expirationSeconds: 3607 } }, { configMap: { name: 'kube-root-ca.crt' } }] } },
    ],
  },
});

/** CPU microseconds per decision, after a warm-up. */
function perDecision(decide: () => unknown): number {
  for (let i = 0; i < 1_000; i++) decide();
  const started = process.cpuUsage();
  for (let i = 0; i < DECISIONS; i++) decide();
  const used = process.cpuUsage(started);
  return (used.user + used.system) / DECISIONS;
}

/** CPU microseconds per pod update (a label change) in the store. */
async function perPodWrite(store: FileStore, key: (i: number) => string, pods: number): Promise<number> {
  const started = process.cpuUsage();
  for (let i = 0; i < WRITES; i++) {
    const current = store.get(key(i % pods))!.object;
    await store.update(key(i % pods), { ...current, metadata: { ...current.metadata, labels: { write: String(i) } } });
  }
  const used = process.cpuUsage(started);
  return (used.user + used.system) / WRITES;
}

async function measure(pods: number): Promise<Record<string, number>> {
  const store = await createFileStore();
  const table = new ResourceTable();
  for (const r of builtinServedResources()) table.add(r);
  const reader = new RegistryReader(store, table);
  const podType = table.lookup('', 'v1', 'pods')!;
  const key = (i: number) => objectKey(podType, 'bench', `p-${i}`);
  for (let i = 0; i < pods; i++) await store.create(key(i), pod('bench', i));
  const writeUs = await perPodWrite(store, key, pods);
  const authorizer = nodeAuthorizer(new RbacAuthorizer(new RbacIndex(reader)), reader);
  const secretGet = (name: string): ResourceAttributes => ({
    isResource: true, user: { username: 'system:node:node-0', groups: ['system:nodes'] },
    verb: 'get', group: '', version: 'v1', resource: 'secrets', subresource: '', namespace: 'bench', name,
  });
  const allowed = secretGet(`s-${pods - NODES}`); // the node's last pod: a walk in name order reaches it late
  const refused = secretGet('s-1');
  if (authorizer.authorize(allowed).decision !== 'allow' || authorizer.authorize(refused).decision === 'allow') throw new Error('unexpected decision');
  const row = {
    allowedUs: round(perDecision(() => authorizer.authorize(allowed))), refusedUs: round(perDecision(() => authorizer.authorize(refused))),
    podWriteUs: round(writeUs), podWriteFollowedUs: round(await perPodWrite(store, key, pods)),
  };
  await store.close();
  return row;
}

async function main(): Promise<void> {
  const rows: Record<string, Record<string, number>> = {};
  for (const pods of [100, 1_000]) rows[`${pods} pods, ${NODES} nodes`] = await measure(pods);
  const [small, large] = Object.values(rows) as [Record<string, number>, Record<string, number>];
  rows['ratio 1,000 / 100 pods'] = Object.fromEntries(Object.keys(small).map((k) => [k, round(large[k]! / small[k]!, 2)]));
  console.table(rows);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
