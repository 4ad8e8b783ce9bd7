/** The `kruise` command line: the only place that reads argv and environment. */
import { kruiseVersion } from '../machinery/version.js';
import { Command, InvalidArgumentError } from 'commander';
// Commands load their modules when they run: the manager must not carry the control plane's code.
import type { UpOptions } from './up.js';
import type { ManagerCommandOptions } from './manager.js';
import type { RolloutStatusOptions } from './rollout.js';
import type { DaemonCommandOptions } from './daemon.js';
import type { WorkloadCommandOptions } from './workload-ops.js';
import type { CreateJobOptions } from './create-job.js';
import { authorizationModes, type AuthorizationMode } from '../apiserver/authz/authorizer.js';
import { flagsOf, registerPluginCommands, targetFlags, writeFlags } from './plugin/register.js';
import type { WriteFlags } from './plugin/target.js';

/** Seconds, as `60`, `60s`, `2m` or `1500ms`. */
function durationOption(value: string): number {
  const m = /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(value.trim());
  if (!m) throw new InvalidArgumentError('must be a duration such as 60s or 2m');
  const factor = { ms: 0.001, s: 1, m: 60, h: 3600 }[(m[2] ?? 's') as 'ms' | 's' | 'm' | 'h'];
  return Number(m[1]) * factor;
}

/** kube-apiserver's --authorization-mode, limited to the modes the embedded server has (one at a time). */
function authorizationModeOption(value: string): AuthorizationMode {
  if (!(authorizationModes as readonly string[]).includes(value)) throw new InvalidArgumentError(`must be one of ${authorizationModes.join(', ')}`);
  return value as AuthorizationMode;
}

function logFormatOption(value: string): 'json' | 'text' {
  if (value !== 'json' && value !== 'text') throw new InvalidArgumentError('must be json or text');
  return value;
}

function intOption(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer');
  return n;
}

// `kruise crds | head` closes stdout early; that is not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

const program = new Command();
program.name('kruise').description('OpenKruise workloads in TypeScript, with an embedded Kubernetes control plane').version(kruiseVersion);

program
  .command('up')
  .description('start the embedded control plane in the foreground and print "ready" when it serves')
  .option('--data-dir <dir>', 'where the store, certificates and kubeconfig live', './.kruise')
  .option('--port <n>', 'HTTPS port of the API server (0 picks a free port)', intOption, 6443)
  .option('--host <address>', 'address to listen on', '127.0.0.1')
  .option('--kubeconfig <path>', 'where to write the kubeconfig (default: <data-dir>/kubeconfig)')
  .option('--update-kubeconfig', 'also merge a "kruise" context into your kubeconfig ($KUBECONFIG or ~/.kube/config) and make it current, as kind does', false)
  .option('--nodes <n>', 'number of simulated nodes', intOption, 3)
  .option('--zones <list>', 'topology.kubernetes.io/zone labels of the nodes, given round-robin (default zone-a,zone-b,zone-c)')
  .option('--node-pods <n>', 'pods each simulated node holds (default 110); more stay Pending as Unschedulable', intOption)
  .option('--in-memory', 'keep the store in memory only (nothing survives a restart)', false)
  .option('--authorization-mode <mode>', 'RBAC (kube\'s roles and bindings; the kubeconfig user is in system:masters) or AlwaysAllow', authorizationModeOption, 'RBAC')
  .option('--pull-delay-ms <n>', 'simulated image pull time per image and node', intOption, 0)
  .option('--start-delay-ms <n>', 'simulated container start time', intOption, 0)
  .option('--node-behaviour <file>', 'YAML rules for what simulated containers do (run times, exit codes, readiness) and image registry facts')
  .option('--feature-gates <list>', 'Kruise feature gates, e.g. A=true,B=false (try-it-out gates are on unless turned off)', '')
  .option('--log-level <level>', 'log level: debug, info, warn, error', 'info')
  .option('--log-format <format>', 'text (one readable line per entry) or json', logFormatOption, 'text')
  .option('--webhook-port <n>', 'port of the in-process Kruise webhook server on 127.0.0.1 (0 picks a free port)', intOption, 0)
  .option('--no-kruise-manager', 'run without the in-process Kruise manager and webhooks (attach `kruise manager --kubeconfig K`)')
  .option('--no-kruise-install', 'start without Kruise\'s CRDs and configuration, and so without its manager (install with `helm install kruise charts/kruise` or `kruise install`)')
  .option('--no-kruise-daemon', 'run without the in-process kruise-daemons (attach `kruise daemon --node-name N --socket-file <data-dir>/cri/N.sock`)')
  .option('--no-dashboard', 'do not serve the web dashboard under /dashboard/')
  .option('--dashboard-actions', 'let the dashboard pause/resume rollouts and change partitions (read-only otherwise)', false)
  .action(async (opts: UpOptions) => {
    await (await import('./up.js')).runUp(opts);
  });

program
  .command('dashboard')
  .description('serve the web dashboard against any cluster, as the kubeconfig\'s user (prints its URL and a login key)')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG or ~/.kube/config)')
  .option('--host <address>', 'loopback address to listen on', '127.0.0.1')
  .option('--port <n>', 'HTTP port (0 picks a free port)', intOption, 8001)
  .option('--dashboard-actions', 'allow pause/resume of rollouts and partition changes (read-only otherwise)', false)
  .action(async (opts: { kubeconfig?: string; host: string; port: number; dashboardActions: boolean }) => {
    await (await import('./dashboard.js')).runDashboard(opts);
  });

program
  .command('manager')
  .description('run the Kruise manager (all controllers) against any API server; in-cluster config when no kubeconfig')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .option('--feature-gates <list>', 'feature gates, e.g. A=true,B=false (AllAlpha/AllBeta honoured)', '')
  .option('--log-level <level>', 'log level: debug, info, warn, error', 'info')
  .option('--log-format <format>', 'json (for log collectors) or text', logFormatOption, 'json')
  .option('--health-addr <host:port>', 'address of /healthz, /readyz and /metrics', '127.0.0.1:8000')
  .option('--metrics-addr <host:port>', 'a second address serving /metrics (the health address serves it as well)')
  .option('--no-leader-elect', 'run without leader election')
  .option('--leader-election-namespace <ns>', 'namespace of the leader election Lease', 'kruise-system')
  .option('--lease-duration <s>', 'leader election lease duration in seconds', intOption, 15)
  .option('--renew-deadline <s>', 'leader election renew deadline in seconds', intOption, 10)
  .option('--retry-period <s>', 'leader election retry period in seconds', intOption, 2)
  .option('--webhook-initialize-timeout <duration>', 'exit when the first webhook configuration sync takes longer', durationOption, 60)
  .option('--webhook-bind-address <host>', 'address the webhook HTTPS server listens on (port: $WEBHOOK_PORT); default 0.0.0.0 in a cluster, 127.0.0.1 outside one')
  .option('--protection-log-path <dir>', 'directory of protection.log (PUB and deletion-protection denials); empty: no log', '')
  .addHelpText('after', '\nEnvironment: POD_NAMESPACE, WEBHOOK_PORT (9876), WEBHOOK_HOST, WEBHOOK_CERT_DIR, WEBHOOK_CERT_WRITER (secret|fs),\nSECRET_NAME, SERVICE_NAME, CERTS_RENEW_BEFORE (<n>d|m|y).')
  .action(async (opts: Omit<ManagerCommandOptions, 'webhook' | 'webhookBindAddress'> & { webhookBindAddress?: string }) => {
    const { runManager, webhookEnv } = await import('./manager.js');
    // Out of a cluster nothing but this machine should reach the webhooks unless asked for.
    const webhookBindAddress = opts.webhookBindAddress ?? (process.env.KUBERNETES_SERVICE_HOST ? '0.0.0.0' : '127.0.0.1');
    await runManager({ ...opts, webhookBindAddress, webhook: webhookEnv(process.env) });
  });

program
  .command('daemon')
  .description('run kruise-daemon for one node: image pre-pull, container recreate and probes over the node\'s CRI runtime')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .option('--node-name <name>', 'the node this daemon serves (default: $NODE_NAME)')
  .option('--addr <[host]:port>', 'address of /healthz and /metrics', ':10221')
  .option('--socket-file <path>', 'the CRI socket (absolute, or relative to --var-run-dir); default: the well-known runtime sockets')
  .option('--var-run-dir <dir>', 'where the host\'s /var/run is mounted', '/hostvarrun')
  .option('--max-workers-for-pull-image <n>', 'concurrent image pulls (-1: unlimited)', (v: string) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < -1 || n === 0) throw new InvalidArgumentError('must be -1 or a positive integer');
    return n;
  }, -1)
  .option('--feature-gates <list>', 'feature gates, e.g. A=true,B=false', '')
  .option('--rest-config-qps <n>', 'client-side limit of API requests per second (0: unlimited)', intOption, 0)
  .option('--log-level <level>', 'log level: debug, info, warn, error', 'info')
  .option('--log-format <format>', 'json (for log collectors) or text', logFormatOption, 'json')
  .action(async (opts: DaemonCommandOptions) => {
    await (await import('./daemon.js')).runDaemon(opts);
  });

program
  .command('scheduler')
  .description('run the scheduler against any API server')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .action(async (opts: { kubeconfig?: string }) => {
    await (await import('./components.js')).runScheduler(opts);
  });

program
  .command('nodes')
  .description('run simulated nodes (kubelets with a simulated container runtime) against any API server')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster')
  .option('--count <n>', 'number of nodes', intOption, 3)
  .option('--name-prefix <prefix>', 'node name prefix', 'kruise-node-')
  .option('--pull-delay-ms <n>', 'simulated image pull time per image and node', intOption, 0)
  .option('--start-delay-ms <n>', 'simulated container start time', intOption, 0)
  .option('--node-behaviour <file>', 'YAML rules for what simulated containers do and image registry facts')
  .option('--cri-dir <dir>', 'serve each node\'s runtime over CRI v1 gRPC at <dir>/<node>.sock (for kruise daemon --socket-file and crictl)')
  .action(async (opts: { kubeconfig?: string; count: number; namePrefix: string; pullDelayMs: number; startDelayMs: number; nodeBehaviour?: string; criDir?: string }) => {
    await (await import('./components.js')).runNodes(opts);
  });

program
  .command('crds')
  .description('print the CustomResourceDefinitions of every Kruise kind as YAML')
  .action(async () => (await import('./install.js')).runCrds());

program
  .command('install')
  .description('apply what the Helm chart charts/kruise installs: CRDs, namespace, RBAC, webhook configuration, manager Deployment, daemon DaemonSet')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .option('-f, --values <file>', 'chart values file laid over the defaults (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
  .option('--no-workloads', 'configuration only, no manager Deployment or daemon DaemonSet (for a manager run outside the cluster)')
  .option('--dry-run', 'print the objects instead of applying them')
  .option('-o, --output <format>', 'with --dry-run: yaml prints every object')
  .option('--wait [duration]', 'wait until the manager Deployment and daemon DaemonSet are available (default 5m)', (v: string) => durationOption(v), 0)
  .action(async (opts: Omit<import('./install.js').InstallCommandOptions, 'wait'> & { wait: number | true }) => {
    await (await import('./install.js')).runInstall({ ...opts, dryRun: Boolean(opts.dryRun), wait: opts.wait === true ? 300 : opts.wait });
  });

program
  .command('uninstall')
  .description('remove what kruise install applied; refuses while CloneSets, Advanced StatefulSets or Advanced DaemonSets exist')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .option('-f, --values <file>', 'the chart values the installation used (repeatable)', (v: string, all: string[]) => [...all, v], [] as string[])
  .option('--check', 'only check that no Kruise workload is left (the chart\'s pre-delete hook); exit 1 when one is')
  .action(async (opts: { kubeconfig?: string; values: string[]; check?: boolean }) => {
    await (await import('./install.js')).runUninstall({ ...opts, check: Boolean(opts.check) });
  });

const store = program.command('store').description('check or repair the store directory of `kruise up` (the store refuses to start when damaged)');
store
  .command('verify')
  .description('read DIR as a start would and report the first damage (exit 1 when damaged)')
  .argument('<dir>', 'the store directory, or the data directory holding it in store/')
  .action(async (dir: string) => (await import('./store.js')).runStoreVerify(dir));
store
  .command('repair')
  .description('keep what verifies, move what does not into DIR/damaged-<time>/ and report what was dropped')
  .argument('<dir>', 'the store directory, or the data directory holding it in store/')
  .action(async (dir: string) => (await import('./store.js')).runStoreRepair(dir));

const rollout = program.command('rollout').description('follow the rollout of a CloneSet, Advanced StatefulSet or Advanced DaemonSet');
rollout
  .command('status')
  .description('print the rollout status of TYPE/NAME (clone, asts, ads) until it is done; exits 1 on a progress deadline or timeout')
  .argument('<ref...>', 'TYPE/NAME or TYPE NAME, e.g. clone/demo')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .option('-n, --namespace <ns>', 'namespace (default: the kubeconfig context\'s, else default)')
  .option('-w, --watch <bool>', 'keep watching until the rollout is done', (v) => v !== 'false', true)
  .option('--timeout <duration>', 'give up after this long (0: never)', durationOption, 0)
  .action(async (ref: string[], opts: RolloutStatusOptions) => {
    await (await import('./rollout.js')).runRolloutStatus(ref, opts);
  });

// kubectl-kruise's workload commands (docs/design/manager.md §10, §12)
const target = targetFlags;
const ops = () => import('./workload-ops.js');
type Target = WorkloadCommandOptions;

target(rollout.command('pause').description('pause the rollout of TYPE/NAME (clone, asts, ads)').argument('<ref...>', 'TYPE/NAME'))
  .action(async (ref: string[], opts: Target) => (await ops()).runPause(ref, true, opts));
target(rollout.command('resume').description('resume a paused rollout of TYPE/NAME').argument('<ref...>', 'TYPE/NAME'))
  .action(async (ref: string[], opts: Target) => (await ops()).runPause(ref, false, opts));
target(rollout.command('restart').description('restart the pods of TYPE/NAME through a new template annotation').argument('<ref...>', 'TYPE/NAME'))
  .action(async (ref: string[], opts: Target) => (await ops()).runRestart(ref, opts));
target(rollout.command('history').description('list the revisions of TYPE/NAME').argument('<ref...>', 'TYPE/NAME'))
  .action(async (ref: string[], opts: Target) => (await ops()).runHistory(ref, opts));
writeFlags(rollout.command('undo').description('roll TYPE/NAME back to the previous revision, or to --to-revision').argument('<ref...>', 'TYPE/NAME')
  .option('--to-revision <n>', 'the revision to roll back to (0: the previous one)', intOption, 0))
  .action(async (ref: string[], opts: WriteFlags & { toRevision: number }) => (await ops()).runUndo(ref, opts.toRevision, opts));
const set = program.command('set').description('change fields of a Kruise workload');
writeFlags(set.command('image').description('set container images of TYPE/NAME: CONTAINER=IMAGE ... (* for every container)').argument('<ref>', 'TYPE/NAME').argument('<pairs...>', 'CONTAINER=IMAGE'), true)
  .action(async (ref: string, pairs: string[], _o: unknown, c: Command) => (await ops()).runSetImage(ref, pairs, flagsOf(c)));
writeFlags(program.command('scale').description('set the replicas of TYPE/NAME').argument('<ref...>', 'TYPE/NAME')
  .requiredOption('--replicas <n>', 'the new number of replicas', intOption), true)
  .action(async (ref: string[], _o: unknown, c: Command) => (await ops()).runScale(ref, c.opts<{ replicas: number }>().replicas, flagsOf(c)));
target(program.command('scaledown').description('scale a CloneSet down by deleting exactly the named pods').argument('<ref...>', 'cloneset/NAME')
  .requiredOption('--pods <names>', 'comma-separated pod names', (v: string) => v.split(',').map((p) => p.trim()).filter(Boolean)))
  .action(async (ref: string[], opts: Target & { pods: string[] }) => (await ops()).runScaleDown(ref, opts.pods, opts));
const create = program.command('create').description('create a resource (kubectl kruise create)');
registerPluginCommands(program, set, create);
create
  .command('job')
  .description('create a Job: --from=acj/NAME (an AdvancedCronJob with a job template) or cronjob/NAME, or --image=IMAGE [-- COMMAND...]')
  .argument('<name>', 'name of the Job')
  .argument('[command...]', 'command of the --image container')
  .option('--from <type/name>', 'the AdvancedCronJob (acj/NAME) or CronJob (cronjob/NAME) to create the Job from')
  .option('--image <image>', 'image of the Job\'s one container')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .option('-n, --namespace <ns>', 'namespace (default: the kubeconfig context\'s, else default)')
  .action(async (name: string, command: string[], opts: CreateJobOptions) => {
    await (await import('./create-job.js')).runCreateJob(name, command, opts);
  });

program.command('sidecarset').description('SidecarSet tools')
  .command('explain')
  .description('say which SidecarSets apply to POD and why the others do not (selector, namespace, paused, canary, conflicts, version)')
  .argument('<pod>', 'the pod name')
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .option('-n, --namespace <ns>', 'namespace (default: the kubeconfig context\'s, else default)')
  .action(async (pod: string, opts: { kubeconfig?: string; namespace?: string }) => {
    await (await import('./sidecarset-explain.js')).runSidecarSetExplain(pod, opts);
  });

program.parseAsync(process.argv).catch((e: unknown) => {
  // kubectl's two shapes: the API server's refusals name their reason (NotFound, AlreadyExists...)
  const reason = e instanceof Error && e.name === 'StatusError' ? (e as Error & { reason?: string }).reason : undefined;
  console.error(reason ? `Error from server (${reason}): ${(e as Error).message}` : `error: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
