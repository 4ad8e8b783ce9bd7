/**
 * The kubectl-kruise commands added for kruise-tools parity (docs/design/manager.md §12): `set env`,
 * `set resources`, `create ContainerRecreateRequest`, `expose`, `migrate`, and kubectl's write flags
 * (`--dry-run`, `-o`, `--record`) for them and for `set image`, `scale` and `rollout undo`.
 * Implementations load when a command runs, as every command of cli.ts does.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import path from 'node:path';
import type { WriteFlags } from './target.js';

function dryRunOption(value: string | true): WriteFlags['dryRun'] {
  if (value === true) return 'client'; // bare --dry-run: kubectl's deprecated spelling of client
  if (value !== 'none' && value !== 'client' && value !== 'server') throw new InvalidArgumentError(`Invalid dry-run value (${value}). Must be "none", "server", or "client".`);
  return value;
}
function outputOption(value: string): WriteFlags['output'] {
  if (value !== 'yaml' && value !== 'json' && value !== 'name') throw new InvalidArgumentError(`unable to match a printer suitable for the output format "${value}", allowed formats are: json,name,yaml`);
  return value;
}
const list = (v: string, all: string[]) => [...all, v];

/**
 * kubectl's change cause for `--record`: the program's base name, the positional arguments, then
 * every flag given as `--name=value` (kubectl's `Factory.Command`).
 */
export function changeCause(args: string[], flags: [string, unknown][]): string {
  const program = path.basename(process.argv[1] ?? 'kubectl-kruise').replace(/\.js$/, '');
  const given = flags.flatMap(([name, value]) => (Array.isArray(value) ? value : [value]).map((v) => ` --${name}=${String(v)}`));
  return `${program}${args.length ? ` ${args.join(' ')}` : ''}${given.join('')}`;
}


export const targetFlags = (c: Command): Command => c
  .option('--kubeconfig <path>', 'kubeconfig of the target cluster (default: $KUBECONFIG, ~/.kube/config or in-cluster)')
  .option('-n, --namespace <ns>', 'namespace (default: the kubeconfig context\'s, else default)');

/** kubectl's write flags; `record` adds the deprecated --record (set image, set resources, scale). */
export function writeFlags(c: Command, record = false): Command {
  targetFlags(c)
    .addOption(new Option('--dry-run [strategy]', 'none, client (print only) or server (sent with dryRun=All)').argParser(dryRunOption))
    .addOption(new Option('-o, --output <format>', 'yaml, json or name').argParser(outputOption));
  if (record) c.option('--record', 'deprecated: record the command line in the kubernetes.io/change-cause annotation');
  return c;
}

/** The parsed flags, with the change cause when --record was given. */
export function flagsOf<T extends WriteFlags>(c: Command): T {
  const o = c.opts<T & { record?: boolean }>();
  if (!o.record) return o;
  const given = c.options.filter((opt) => c.getOptionValueSource(opt.attributeName()) === 'cli')
    .map((opt) => [opt.long!.slice(2), c.getOptionValue(opt.attributeName())] as [string, unknown]);
  console.error('Flag --record has been deprecated, --record will be removed in the future');
  return { ...o, changeCause: changeCause([...(c.parent!.parent ? [c.parent!.name()] : []), c.name(), ...c.args], given) };
}

export function registerPluginCommands(program: Command, set: Command, create: Command): void {
  writeFlags(set.command('env').description('update environment variables of TYPE/NAME: KEY=VAL, KEY- (remove), --from=configmap/N|secret/N, --list')
    .argument('<ref>', 'TYPE/NAME').argument('[env...]', 'KEY=VAL or KEY-')
    .option('-e, --env <KEY=VAL>', 'a variable to set (repeatable)', list, [] as string[])
    .option('-c, --containers <glob>', 'the containers to change', '*')
    .option('--from <type/name>', 'every key of a configmap/NAME or secret/NAME, as references')
    .option('--prefix <prefix>', 'prefix of the names of variables from --from')
    .option('--keys <keys>', 'with --from: only these keys (comma-separated)', (v: string) => v.split(','))
    .option('--list', 'print the environment of each container instead of changing it')
    .option('--overwrite <bool>', 'replace a variable already set', (v: string) => v !== 'false', true))
    .action(async (ref: string, env: string[], _o: unknown, c: Command) => (await import('./set-env.js')).runSetEnv(ref, env, flagsOf(c)));
  writeFlags(set.command('resources').description('set resource limits and requests of TYPE/NAME: --limits=cpu=200m,memory=512Mi --requests=cpu=100m')
    .argument('<ref>', 'TYPE/NAME')
    .option('-c, --containers <glob>', 'the containers to change', '*')
    .option('--limits <list>', 'resource limits, e.g. cpu=200m,memory=512Mi')
    .option('--requests <list>', 'resource requests, e.g. cpu=100m,memory=256Mi'), true)
    .action(async (ref: string, _o: unknown, c: Command) => (await import('./set-resources.js')).runSetResources(ref, flagsOf(c)));
  writeFlags(create.command('ContainerRecreateRequest').aliases(['containerrecreaterequest', 'crr'])
    .description('create a ContainerRecreateRequest that recreates containers of --pod (all of them without --containers)')
    .argument('<name>', 'name of the ContainerRecreateRequest')
    .option('-p, --pod <name>', 'the pod')
    .option('--containers <names>', 'the containers to recreate (comma-separated)', (v: string) => v.split(',').filter(Boolean))
    .option('-u, --unreadyGracePeriodSeconds <s>', 'seconds the pod is marked not ready before the preStop hook and stop', Number, 3)
    .option('-m, --minStartedSeconds <s>', 'seconds a new container must run to count as started', Number, 3))
    .action(async (name: string, _o: unknown, c: Command) => (await import('./create-crr.js')).runCreateCrr(name, flagsOf(c)));
  writeFlags(program.command('expose').description('expose TYPE/NAME as a Service selecting its pods (as kubectl expose deployment)')
    .argument('<ref...>', 'TYPE/NAME')
    .option('--port <port>', 'the Service port (default: the template\'s container ports)')
    .option('--target-port <port>', 'the container port (number or name) the Service sends to (default: --port)')
    .option('--name <name>', 'the Service name (default: the workload\'s)')
    .option('--type <type>', 'ClusterIP, NodePort, LoadBalancer or ExternalName')
    .option('--protocol <protocol>', 'TCP, UDP or SCTP', 'TCP')
    .option('--selector <k=v,...>', 'the Service selector (default: the workload\'s matchLabels)'))
    .action(async (ref: string[], _o: unknown, c: Command) => (await import('./expose.js')).runExpose(ref, flagsOf(c)));
  targetFlags(program.command('migrate').description('migrate from a Deployment to a CloneSet: --create makes the CloneSet, otherwise replicas move')
    .argument('[kind...]', 'the destination kind: CloneSet')
    .option('--from <kind>', 'the source kind: Deployment')
    .option('--src-name <name>', 'the source Deployment')
    .option('--dst-name <name>', 'the destination CloneSet (default with --create: the Deployment\'s name)')
    .option('--create', 'create the CloneSet from the Deployment, with replicas 0', false)
    .option('--copy', 'with --create: the Deployment\'s replicas', false)
    .option('--replicas <n>', 'replicas to move (-1: all of the Deployment\'s)', Number, -1)
    .option('--max-surge <n>', 'CloneSet replicas beyond those the Deployment gave up', Number, 1)
    .option('--timeout-seconds <n>', 'give up after this long (-1: never)', Number, -1))
    .action(async (kind: string[], _o: unknown, c: Command) => (await import('./migrate.js')).runMigrate(kind, c.opts()));
}
