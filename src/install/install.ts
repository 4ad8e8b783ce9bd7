/**
 * Applies the install manifests with server-side apply, so re-running `kruise install` upgrades in
 * place. What the manager owns (webhook caBundles, pruned webhook lists, the conversion clientConfig
 * of CRDs) is carried over from the live objects, so a re-install never undoes the manager's work.
 */
import type { KObject } from '../api/meta.js';
import {
  type ResourceType, CustomResourceDefinitions, DaemonSets, Deployments, Jobs, MutatingWebhookConfigurations, Namespaces, Secrets, ServiceAccounts, Services, ValidatingWebhookConfigurations,
} from '../api/resource-type.js';
import { templateAnnotation } from '../api/kruise/webhook-inventory.js';
import type { Client } from '../client/client.js';
import { deepEqual } from '../machinery/deep-equal.js';
import { isNotFound } from '../machinery/errors.js';
import { chartObjects, installManifests, isHelmHook } from './manifests.js';
import type { ChartValues } from './chart/values.js';

const rbacType = (resource: string, kind: string, namespaced = false): ResourceType => ({ group: 'rbac.authorization.k8s.io', version: 'v1', resource, kind, namespaced });
/** The resource type of every kind the chart renders. */
export const chartTypes: Record<string, ResourceType> = {
  CustomResourceDefinition: CustomResourceDefinitions,
  Namespace: Namespaces,
  ServiceAccount: ServiceAccounts,
  Service: Services,
  Secret: Secrets,
  MutatingWebhookConfiguration: MutatingWebhookConfigurations,
  ValidatingWebhookConfiguration: ValidatingWebhookConfigurations,
  ClusterRole: rbacType('clusterroles', 'ClusterRole'),
  ClusterRoleBinding: rbacType('clusterrolebindings', 'ClusterRoleBinding'),
  Role: rbacType('roles', 'Role', true),
  RoleBinding: rbacType('rolebindings', 'RoleBinding', true),
  Deployment: Deployments,
  DaemonSet: DaemonSets,
  Job: Jobs,
};

export interface InstallOptions {
  /** Chart values (defaults: charts/kruise/values.yaml). */
  values?: ChartValues;
  /** Also the manager Deployment and daemon DaemonSet, as the chart; off for a manager run outside the cluster. */
  workloads?: boolean;
  log?: (line: string) => void;
}

/** The objects `kruise install` applies: the chart's, without its Helm hooks. */
export function objectsToInstall(options: InstallOptions = {}): KObject[] {
  return options.workloads ? chartObjects(options.values).filter((o) => !isHelmHook(o)) : installManifests(options.values);
}

export async function installKruise(client: Client, options: InstallOptions = {}): Promise<KObject[]> {
  const log = options.log ?? (() => undefined);
  const applied: KObject[] = [];
  const liveCrds = new Map((await client.list(CustomResourceDefinitions)).items.map((c) => [c.metadata.name!, c]));
  for (const manifest of objectsToInstall(options)) {
    const type = chartTypes[manifest.kind!];
    const live = manifest.kind === 'CustomResourceDefinition' ? liveCrds.get(manifest.metadata.name!) : await liveWebhookConfiguration(client, type, manifest);
    const obj = live ? keepManagerState(manifest, live) : manifest;
    const result = await client.patch(type, obj.metadata.namespace, obj.metadata.name!, 'apply', obj, { fieldManager: 'kruise-install', force: true });
    log(`${obj.kind!.toLowerCase()}/${obj.metadata.name} applied`);
    applied.push(result);
  }
  return applied;
}

async function liveWebhookConfiguration(client: Client, type: ResourceType, manifest: KObject): Promise<KObject | undefined> {
  if (type !== MutatingWebhookConfigurations && type !== ValidatingWebhookConfigurations) return undefined;
  return client.get(type, undefined, manifest.metadata.name!).catch((e: unknown) => {
    if (isNotFound(e)) return undefined;
    throw e;
  });
}

/** The manifest with the manager-owned parts of `live` in place of the install-time defaults. */
export function keepManagerState(manifest: KObject, live: KObject): KObject {
  const obj = structuredClone(manifest);
  if (obj.kind === 'CustomResourceDefinition') {
    const conversion = (live.spec as { conversion?: { webhook?: { clientConfig?: { caBundle?: string } } } } | undefined)?.conversion;
    if (conversion?.webhook?.clientConfig?.caBundle) (obj.spec as Record<string, unknown>).conversion = structuredClone(conversion);
    return obj;
  }
  const savedTemplate = live.metadata.annotations?.[templateAnnotation];
  if (!savedTemplate) return obj; // the manager has not taken over yet: install as the chart does
  // Keep the manager's webhooks; hand it the new template (it rebuilds from it on its next sync).
  const template = obj.webhooks;
  obj.webhooks = structuredClone(live.webhooks ?? []);
  obj.metadata.annotations = { ...obj.metadata.annotations, [templateAnnotation]: sameTemplate(savedTemplate, template) ? savedTemplate : JSON.stringify(template) };
  return obj;
}

function sameTemplate(saved: string, template: unknown): boolean {
  try {
    return deepEqual(JSON.parse(saved), template);
  } catch {
    return false;
  }
}
