/** `kruise dashboard --kubeconfig K`: the web dashboard against any cluster (docs/design/dashboard.md §7). */
import { createHttpClient } from '../client/index.js';
import { serveDashboard } from '../dashboard/index.js';

export async function runDashboard(options: { kubeconfig?: string; host: string; port: number; dashboardActions: boolean }): Promise<void> {
  const client = createHttpClient({ kubeconfigPath: options.kubeconfig, userAgent: 'kruise-dashboard' });
  const served = await serveDashboard({ client, host: options.host, port: options.port, actions: options.dashboardActions });
  console.log(`kruise dashboard at ${served.url}`);
  console.log(`  sign in with the login key ${served.loginKey} (it acts as the kubeconfig's user), or with a bearer token of the cluster`);
  console.log(`  ${options.dashboardActions ? 'actions on: pause/resume and partition buttons' : 'read-only (--dashboard-actions adds pause/resume and partition buttons)'}; Ctrl-C stops`);
  const stop = () => void served.stop().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}
