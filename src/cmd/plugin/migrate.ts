/**
 * `kubectl kruise migrate CloneSet --from Deployment -n NS --src-name D ...` (kruise-tools' flags and
 * lines; docs/design/manager.md §12). With `--create` a CloneSet is made from the Deployment's spec
 * (replicas 0, or the Deployment's with `--copy`; ReCreate updates with its surge, unavailability and pause).
 * Without it replicas move: the CloneSet grows by at most --max-surge beyond what the Deployment has
 * given up, and once every CloneSet replica is available the Deployment shrinks by as many.
 */
import type { KObject } from '../../api/meta.js';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { Deployments } from '../../api/resource-type.js';
import type { Client } from '../../client/index.js';
import { pluginClient } from './target.js';

export interface MigrateOptions {
  kubeconfig?: string; namespace?: string; from?: string; srcName?: string; dstName?: string;
  create: boolean; copy: boolean; replicas: number; maxSurge: number; timeoutSeconds: number;
}
type Scalable = KObject & { spec: Record<string, any> & { replicas?: number }; status?: { observedGeneration?: number; availableReplicas?: number } }; // any: copied field by field

function cloneSetFrom(d: Scalable, name: string, copy: boolean): KObject {
  const rolling = d.spec.strategy?.rollingUpdate as { maxSurge?: unknown; maxUnavailable?: unknown } | undefined;
  const { labels, annotations, finalizers } = d.metadata;
  return {
    apiVersion: `${CloneSets.group}/${CloneSets.version}`, kind: 'CloneSet',
    metadata: { name, namespace: d.metadata.namespace, labels, annotations, finalizers },
    spec: {
      replicas: copy ? d.spec.replicas : 0, selector: d.spec.selector, template: d.spec.template,
      revisionHistoryLimit: d.spec.revisionHistoryLimit, minReadySeconds: d.spec.minReadySeconds,
      // the storage version's spelling of v1alpha1's `type: ReCreate`
      updateStrategy: { type: 'RollingUpdate', rollingUpdate: { podUpdatePolicy: 'ReCreate', paused: d.spec.paused, maxSurge: rolling?.maxSurge, maxUnavailable: rolling?.maxUnavailable } },
    },
  };
}

const settled = (w: Scalable) => (w.status?.observedGeneration ?? 0) >= (w.metadata.generation ?? 0);

async function moveReplicas(client: Client, ns: string, o: MigrateOptions, src: string, dst: string, print: (l: string) => void) {
  const get = async () => [await client.get<Scalable>(Deployments, ns, src), await client.get<Scalable>(CloneSets, ns, dst)] as const;
  const [deployment] = await get();
  const total = o.replicas >= 0 ? o.replicas : deployment.spec.replicas ?? 1;
  if (total <= 0) throw new Error(`invalid replicas ${total}`);
  if (o.maxSurge <= 0) throw new Error('--max-surge must be a positive integer');
  const deadline = o.timeoutSeconds > 0 ? Date.now() + o.timeoutSeconds * 1000 : Infinity;
  let scaledIn = 0; let scaledOut = 0;
  while (scaledIn < total || scaledOut < total) {
    if (Date.now() > deadline) throw new Error('failed to migrate: task timeout exceeded');
    const [d, cs] = await get();
    const before = [scaledIn, scaledOut].join();
    if (settled(d) && settled(cs)) {
      const out = Math.min(o.maxSurge - (scaledOut - scaledIn), total - scaledOut);
      const inn = Math.min(d.spec.replicas ?? 0, total - scaledIn, scaledOut - scaledIn);
      if (out > 0) {
        cs.spec.replicas = (cs.spec.replicas ?? 0) + out;
        await client.update(CloneSets, cs);
        scaledOut += out;
      } else if (inn > 0 && cs.spec.replicas === cs.status?.availableReplicas) {
        d.spec.replicas = (d.spec.replicas ?? 0) - inn;
        await client.update(Deployments, d);
        scaledIn += inn;
      }
    }
    if ([scaledIn, scaledOut].join() !== before) print(`Migration progress: Deployment/${src} scale in ${scaledIn}, CloneSet/${dst} scale out ${scaledOut}`);
    else await new Promise((r) => setTimeout(r, 250));
  }
  print(`Successfully migrated ${scaledOut} replicas from Deployment/${src} to CloneSet/${dst}`);
}

export async function runMigrate(kind: string[], o: MigrateOptions, print = console.log): Promise<void> {
  if (!o.namespace) throw new Error('must specify namespace by -n or --namespace');
  if (kind.length === 0) throw new Error('must specify workload type like CloneSet');
  if (kind.length > 1) throw new Error('more than one given args');
  if (!o.from) throw new Error('must specify --from');
  if (!o.srcName) throw new Error('must specify --src-name');
  if (!o.dstName && !o.create) throw new Error('must specify --dst-name');
  if (!['CloneSet', 'cloneset'].includes(kind[0]!)) throw new Error('currently only supported CloneSet as dst type');
  if (!['Deployment', 'deployment'].includes(o.from)) throw new Error('currently only supported Deployment as src type');
  const client = pluginClient(o);
  const dst = o.dstName ?? o.srcName;
  if (!o.create) return moveReplicas(client, o.namespace, o, o.srcName, dst, print);
  const exists = await client.get(CloneSets, o.namespace, dst).then(() => true, () => false);
  if (exists) throw new Error(`cloneset ${o.namespace}/${dst} already exists`);
  const deployment = await client.get<Scalable>(Deployments, o.namespace, o.srcName);
  await client.create(CloneSets, cloneSetFrom(deployment, dst, o.copy));
  print(`Successfully created from Deployment/${o.srcName} to CloneSet/${dst}`);
}
