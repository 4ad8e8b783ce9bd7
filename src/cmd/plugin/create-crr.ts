/**
 * `kubectl kruise create ContainerRecreateRequest NAME --pod=P [--containers=a,b]` (kruise-tools'
 * flags; docs/design/manager.md §12): a CRR that recreates the named containers of the pod (all of
 * them without --containers), with kruise-tools' defaults (failurePolicy Fail, unready grace 3 s,
 * min started 3 s, deadline 300 s, TTL 1800 s).
 */
import type { Pod } from '../../api/core/index.js';
import { ContainerRecreateRequests } from '../../api/kruise/resource-types.js';
import { Pods } from '../../api/resource-type.js';
import { isNotFound } from '../../client/index.js';
import { emit, namespaceOf, pluginClient, write, type WriteFlags } from './target.js';

export interface CreateCrrOptions extends WriteFlags {
  pod?: string;
  containers?: string[];
  unreadyGracePeriodSeconds: number;
  minStartedSeconds: number;
}

export async function runCreateCrr(name: string, o: CreateCrrOptions, print = console.log): Promise<void> {
  if (!o.pod) throw new Error('--pod is required');
  const namespace = namespaceOf(o);
  const client = pluginClient(o);
  const pod = await client.get<Pod>(Pods, namespace, o.pod).catch((e: unknown) => {
    throw isNotFound(e) ? new Error(`pod ${o.pod} in namespace ${namespace} not exist`) : e;
  });
  const wanted = o.containers?.length ? o.containers : pod.spec!.containers.map((c) => c.name);
  if (!wanted.every((n) => pod.spec!.containers.some((c) => c.name === n))) throw new Error('has container not exist');
  // Names only: Kruise's webhook fills each container's ports and preStop from the pod and refuses a
  // request that brings them (kruise-tools copies them, and so fails for a container with ports).
  const containers = wanted.map((n) => ({ name: n }));
  const crr = {
    apiVersion: 'apps.kruise.io/v1alpha1', kind: 'ContainerRecreateRequest',
    metadata: { name, namespace },
    spec: {
      podName: o.pod, containers,
      strategy: { failurePolicy: 'Fail', orderedRecreate: false, unreadyGracePeriodSeconds: o.unreadyGracePeriodSeconds, minStartedSeconds: o.minStartedSeconds },
      activeDeadlineSeconds: 300, ttlSecondsAfterFinished: 1800,
    },
  };
  let created;
  try {
    created = await write(client, ContainerRecreateRequests, crr, o, 'create');
  } catch (e) {
    throw new Error(`failed to create crr: ${(e as Error).message}`);
  }
  emit(ContainerRecreateRequests, created, 'created', o, print);
}
