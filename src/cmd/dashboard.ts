/** `kruise dashboard --kubeconfig K`: the web dashboard against any cluster (docs/design/dashboard.md §7). */
import { KubeConfig } from '@kubernetes/client-node';
import { createHttpClient, type Client } from '../client/index.js';
import { serveDashboard, type DashboardUser } from '../dashboard/index.js';

export async function runDashboard(options: { kubeconfig?: string; host: string; port: number; dashboardActions: boolean }): Promise<void> {
  const client = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-dashboard' });
  const served = await serveDashboard({ client, host: options.host, port: options.port, actions: options.dashboardActions, clientAs: tokenClients(options.kubeconfig) });
  console.log(`kruise dashboard at ${served.url}`);
  console.log(`  sign in with the login key ${served.loginKey} (it acts as the kubeconfig's user), or with a bearer token of the cluster`);
  console.log(`  ${options.dashboardActions ? 'actions on: pause/resume and partition buttons' : 'read-only (--dashboard-actions adds pause/resume and partition buttons)'}; Ctrl-C stops`);
  const stop = () => void served.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

/** A client per signed-in token, to the kubeconfig's cluster, so users review their own access (dashboard.md §11). */
function tokenClients(kubeconfigPath: string | undefined): (user: DashboardUser) => Client | undefined {
  const source = new KubeConfig();
  if (kubeconfigPath) source.loadFromFile(kubeconfigPath);
  else source.loadFromDefault();
  const cluster = source.getCurrentCluster();
  const clients = new Map<string, Client>();
  return (user) => {
    if (!user.token || !cluster) return undefined;
    let c = clients.get(user.token);
    if (!c) {
      const kc = new KubeConfig();
      kc.loadFromOptions({ clusters: [cluster], users: [{ name: 'dashboard-user', token: user.token }], contexts: [{ name: 'dashboard', cluster: cluster.name, user: 'dashboard-user' }], currentContext: 'dashboard' });
      clients.set(user.token, (c = createHttpClient({ kubeConfig: kc, userAgent: 'kruise-dashboard' })));
    }
    return c;
  };
}
