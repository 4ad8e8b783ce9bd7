/**
 * The embedded control plane's API server: durable store, built-in and CRD resources, system
 * controllers (CRDs, namespaces, garbage collection), TLS, authentication and the HTTP listener.
 */
import path from 'node:path';
import type { KObject } from '../api/meta.js';
import { createFileStore, type FileStoreOptions } from './storage/file-store.js';
import type { Store } from './storage/store.js';
import { ResourceTable } from './registry/resource-table.js';
import { Registry } from './registry/registry.js';
import { RegistryReader } from './registry/reader.js';
import { systemContext } from './registry/context.js';
import { builtinServedResources } from './builtin-served.js';
import { ApiHandler } from './http/handler.js';
import { startHttpServer, type HttpServer, type MountedHandler } from './http/http-server.js';
import { createAuthenticator } from './auth/authn.js';
import { loadOrCreatePki, type ServerPki } from './auth/pki.js';
import { CrdController } from './system/crd-controller.js';
import { NamespaceController } from './system/namespace-controller.js';
import { GarbageCollector } from './system/garbage-collector.js';
import { metrics } from './http/metrics.js';
import { serviceAccountAdmission } from './admission/service-account.js';
import { nodeRestriction } from './admission/node-restriction.js';
import { createWebhookAdmission, createWebhookConverter, WebhookCaller } from './admission/index.js';
import { createServiceAccountTokens, loadOrCreateServiceAccountKey, type LiveObjectUid, type ServiceAccountTokens } from './auth/service-account-tokens.js';
import { alwaysAllow, authorizerChain, type AuthorizationMode, type Authorizer } from './authz/authorizer.js';
import { RbacIndex } from './authz/rbac-index.js';
import { nodeAuthorizer } from './authz/node-authorizer.js';
import { RbacAuthorizer } from './authz/rbac-authorizer.js';
import { RequestGate } from './authz/request-gate.js';
import { escalationCheck } from './authz/escalation.js';
import { reviewHandlers } from './http/reviews.js';
import { reconcileBootstrapPolicy } from './system/rbac-bootstrap.js';
import { createParityObjects } from './system/parity-bootstrap.js';
import { ClusterRoleAggregator } from './system/clusterrole-aggregation.js';
import { KubeletDialer } from './streaming/kubelet-dialer.js';
import { streamingUpgrades } from './streaming/upgrade.js';
import type { Pod } from '../api/core/index.js';

export interface ControlPlaneOptions {
  /** Data directory; the store lives in `<dir>/store`, certificates in `<dir>/pki`. */
  dataDir: string;
  port: number;
  host?: string;
  /** Keep the store in memory only (tests that need no durability). */
  inMemory?: boolean;
  /** Store tuning (history size for tests of 410 Gone, snapshot threshold). */
  store?: Omit<FileStoreOptions, 'dir'>;
  /** `RBAC` (default) or `AlwaysAllow`, as kube-apiserver's --authorization-mode (docs/design/authorization.md §1). */
  authorizationMode?: AuthorizationMode;
  /**
   * kube's ServiceAccount admission plugin: a pod's ServiceAccount must exist and its token volume is
   * mounted (docs/design/authorization.md §16). On in `kruise up`, which runs the controller creating
   * `default` ServiceAccounts; off for a bare API server, which has no such controller.
   */
  serviceAccountAdmission?: boolean;
}

export interface ControlPlane {
  url: string;
  port: number;
  pki: ServerPki;
  registry: Registry;
  handler: ApiHandler;
  store: Store;
  authorizer: Authorizer;
  serviceAccountTokens: ServiceAccountTokens;
  /** Where exec, attach, port-forward and logs reach the kubelets (docs/design/streaming.md §1). */
  kubelets: KubeletDialer;
  /** Ends all open watches (clients reconnect from their last resourceVersion). */
  endWatches(): void;
  /** Serves `handler` under `prefix` (ending in `/`) on the API server's port: `kruise up`'s dashboard. */
  mount(prefix: string, handler: MountedHandler): void;
  stop(): Promise<void>;
}

const bootstrapNamespaces = ['default', 'kube-system', 'kube-public', 'kube-node-lease'];

export async function startControlPlane(options: ControlPlaneOptions): Promise<ControlPlane> {
  const host = options.host ?? '127.0.0.1';
  const store = await createFileStore({ ...options.store, dir: options.inMemory ? undefined : path.join(options.dataDir, 'store') });
  const table = new ResourceTable();
  // Built in dependency order, nothing patched in afterwards: admission only reads (webhook
  // configurations, Services, Namespaces), so it takes the reader, which needs just the store and
  // the table; the registry then takes the finished admission chain.
  const reader = new RegistryReader(store, table);
  const serviceAccountTokens = createServiceAccountTokens({ privateKey: await loadOrCreateServiceAccountKey(options.dataDir), liveUid: liveUidIn(reader) });
  const kubelets = new KubeletDialer();
  for (const r of builtinServedResources({ tokenIssuer: serviceAccountTokens, kubelets })) table.add(r);
  // One HTTPS caller (keep-alive connections per CA bundle) for admission and conversion webhooks.
  const webhookCaller = new WebhookCaller(reader);
  const admission = createWebhookAdmission({
    reader, caller: webhookCaller,
    observe: (c) => metrics.webhookAdmissionDuration.observe({ name: c.name, type: c.type, operation: c.operation, rejected: String(c.rejected) }, c.seconds),
  });
  // RBAC reads the store through the reader, so it exists before the registry, whose admission
  // checks escalation with it (docs/design/authorization.md §13).
  const rbacIndex = new RbacIndex(reader);
  rbacIndex.start();
  const rbacAuthorizer = new RbacAuthorizer(rbacIndex);
  const mode = options.authorizationMode ?? 'RBAC';
  // `RBAC` means kubeadm's `Node,RBAC`: kubelets are decided by the Node mode first
  const authorizer = authorizerChain(mode === 'RBAC' ? [nodeAuthorizer(rbacAuthorizer, reader), rbacAuthorizer] : [alwaysAllow]);
  const escalation = escalationCheck(authorizer, rbacAuthorizer);
  const serviceAccounts = options.serviceAccountAdmission ? serviceAccountAdmission(reader) : undefined;
  const nodes = nodeRestriction(reader);
  const registry = new Registry({
    store, table,
    admission: { mutate: async (a) => { await serviceAccounts?.mutate(a); await nodes.mutate(a); return admission.mutate(a); }, validate: async (a) => { await escalation.validate(a); await admission.validate(a); } },
  });
  const crds = new CrdController(registry, reader, createWebhookConverter({ caller: webhookCaller }));
  crds.start();
  await bootstrap(registry, reader);
  await reconcileBootstrapPolicy(registry, reader);
  await createParityObjects(registry, reader);
  const aggregator = new ClusterRoleAggregator(registry, reader);
  await aggregator.start();
  const namespaces = new NamespaceController(registry, reader);
  const gc = new GarbageCollector(registry, reader);
  namespaces.start();
  gc.start();
  const pki = await loadOrCreatePki(options.dataDir, { hosts: [...new Set(['127.0.0.1', 'localhost', '::1', host])] });
  const authenticator = createAuthenticator({
    caPem: pki.ca.certPem,
    tokens: { [pki.adminToken]: { username: 'admin', uid: 'admin', groups: ['system:masters'] } },
    serviceAccountTokens: (token) => serviceAccountTokens.authenticate(token),
  });
  let server: HttpServer | undefined;
  const mounts = new Map<string, MountedHandler>();
  const gate = new RequestGate(authorizer);
  const pods = table.lookup('', 'v1', 'pods')!;
  const upgrade = streamingUpgrades({ gate, kubelets, pod: (ns, name) => reader.getStored(pods, ns, name) as Pod | undefined });
  const handler = new ApiHandler({
    registry, serverAddress: () => `${host}:${server?.port ?? options.port}`, storeFailure: () => store.failure(),
    gate, reviews: reviewHandlers(authorizer, (token) => authenticator.authenticateToken(token)),
  });
  server = await startHttpServer({
    handler, authenticator, tls: { certPem: pki.serving.certPem, keyPem: pki.serving.keyPem, caPem: pki.ca.certPem }, host, port: options.port,
    anonymous: mode === 'RBAC' ? 'authorize' : 'listed-paths', mounts, upgrade,
  });
  const statsTimer = setInterval(() => {
    const s = store.stats();
    metrics.storeObjects.set(s.objects);
    metrics.storeBytes.set(s.bytes);
  }, 5000);
  statsTimer.unref();
  const urlHost = host.includes(':') ? `[${host}]` : host;
  return {
    url: `https://${urlHost}:${server.port}`, port: server.port, pki, registry, handler, store, authorizer, serviceAccountTokens, kubelets,
    endWatches: () => server!.endWatches(),
    mount: (prefix, h) => { mounts.set(prefix, h); },
    async stop() {
      clearInterval(statsTimer);
      await server!.close();
      await Promise.all([crds.stop(), namespaces.stop(), gc.stop(), aggregator.stop()]);
      rbacIndex.stop();
      admission.stop();
      webhookCaller.close();
      await store.close();
    },
  };
}

async function bootstrap(registry: Registry, reader: RegistryReader): Promise<void> {
  const ns = registry.table.lookup('', 'v1', 'namespaces')!;
  for (const name of bootstrapNamespaces) {
    if (reader.getStored(ns, undefined, name)) continue;
    await registry.create(ns, undefined, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } }, systemContext());
  }
  const services = registry.table.lookup('', 'v1', 'services')!;
  if (!reader.getStored(services, 'default', 'kubernetes')) {
    const svc: KObject = {
      apiVersion: 'v1', kind: 'Service', metadata: { name: 'kubernetes', namespace: 'default', labels: { component: 'apiserver', provider: 'kubernetes' } },
      spec: { type: 'ClusterIP', ports: [{ name: 'https', port: 443, protocol: 'TCP', targetPort: 6443 }] },
    };
    await registry.create(services, 'default', svc, systemContext());
  }
}

/** A ServiceAccount token stays valid only while what it names is stored, not deleting, with the same uid. */
function liveUidIn(reader: RegistryReader): LiveObjectUid {
  const plurals = { ServiceAccount: 'serviceaccounts', Pod: 'pods', Secret: 'secrets', Node: 'nodes' } as const;
  return (kind, namespace, name) => {
    const r = reader.table.lookup('', 'v1', plurals[kind]);
    const object = r && reader.getStored(r, r.definition.namespaced ? namespace : undefined, name);
    return object && !object.metadata.deletionTimestamp ? object.metadata.uid : undefined;
  };
}
