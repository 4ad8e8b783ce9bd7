/** `kruise dashboard --kubeconfig K`: the web dashboard against any cluster (docs/design/dashboard.md §7). */
import { createHttpClient, type Client } from '../client/index.js';
import { loadKubeconfig } from '../client/kubeconfig.js';
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
  // The kubeconfig's server and CA, none of its credentials: the user's token instead.
  const { server, ca, insecureSkipTlsVerify, tlsServerName, needs } = loadKubeconfig({ path: kubeconfigPath });
  const clients = new Map<string, Client>();
  return (user) => {
    if (!user.token || needs === 'proxy-url') return undefined;
    let c = clients.get(user.token);
    if (!c) {
      if (clients.size >= 100) clients.delete(clients.keys().next().value!); // tokens of sessions long gone
      clients.set(user.token, (c = createHttpClient({ resolved: { server, ca, insecureSkipTlsVerify, tlsServerName, token: user.token }, userAgent: 'kruise-dashboard' })));
    }
    return c;
  };
}
