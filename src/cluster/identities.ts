/**
 * Who each component of the embedded cluster is to the API server (docs/design/authorization.md
 * §15): the users and ServiceAccounts kube-apiserver's bootstrap policy and a kubeadm cluster give
 * the scheduler, kube-controller-manager's controllers and the kubelets, so RBAC (and the Node mode
 * for kubelets) decides their requests as it would on a real cluster.
 */
import type { UserInfo } from '../api/request.js';
import type { Client } from '../client/client.js';

/** Makes a client that acts as `user`, sending `userAgent`. */
export type ClientAs = (user: UserInfo, userAgent: string) => Client;

const authenticated = 'system:authenticated';

export const schedulerUser: UserInfo = { username: 'system:kube-scheduler', groups: [authenticated] };
export const controllerManagerUser: UserInfo = { username: 'system:kube-controller-manager', groups: [authenticated] };

export function nodeUser(node: string): UserInfo {
  return { username: `system:node:${node}`, groups: ['system:nodes', authenticated] };
}

export function serviceAccountUser(namespace: string, name: string): UserInfo {
  return { username: `system:serviceaccount:${namespace}:${name}`, groups: ['system:serviceaccounts', `system:serviceaccounts:${namespace}`, authenticated] };
}

/** kube-controller-manager's `--use-service-account-credentials` accounts (kube-system), by our controller names. */
const controllerAccounts: Record<string, string> = {
  replicaset: 'replicaset-controller',
  deployment: 'deployment-controller',
  statefulset: 'statefulset-controller',
  daemonset: 'daemon-set-controller',
  job: 'job-controller',
  'ttl-after-finished': 'ttl-after-finished-controller',
  cronjob: 'cronjob-controller',
  'node-lifecycle': 'node-controller',
  'pod-garbage-collector': 'pod-garbage-collector',
  serviceaccount: 'service-account-controller',
  'root-ca-cert-publisher': 'root-ca-cert-publisher',
  'persistentvolume-binder': 'persistent-volume-binder',
  'horizontal-pod-autoscaler': 'horizontal-pod-autoscaler',
};

/**
 * The client a core controller writes with (its informers read as kube-controller-manager itself);
 * undefined for the simulated storage pieces that are CSI sidecars or the kubelet on a real cluster
 * (authorization.md §15, §18).
 */
export function controllerClient(clientAs: ClientAs, controller: string): Client | undefined {
  const account = controllerAccounts[controller];
  return account ? clientAs(serviceAccountUser('kube-system', account), `kube-controller-manager/${account}`) : undefined;
}
