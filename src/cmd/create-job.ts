/**
 * `kruise create job NAME --from=acj/NAME` (kubectl kruise, as kruise-tools): a batch/v1 Job from an
 * AdvancedCronJob's job template (or a CronJob's), annotated `cronjob.kubernetes.io/instantiate:
 * manual` and owned (not controlled) by it; or `--image=IMAGE [-- COMMAND...]` for a plain Job.
 */
import type { KObject } from '../api/meta.js';
import { AdvancedCronJobs } from '../api/kruise/resource-types.js';
import { CronJobs, Jobs } from '../api/resource-type.js';
import { createHttpClient } from '../client/index.js';
import { loadKubeconfig } from '../client/kubeconfig.js';

export interface CreateJobOptions {
  kubeconfig?: string;
  namespace?: string;
  from?: string;
  image?: string;
}

interface Template { metadata?: { labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown }
type Source = KObject & { spec?: { jobTemplate?: Template; template?: { jobTemplate?: Template } }; status?: { type?: string } };

const sources = [
  { names: ['acj', 'advancedcronjob', 'advancedcronjobs', 'advancedcronjob.apps.kruise.io'], type: AdvancedCronJobs, ownerApiVersion: 'apps.kruise.io/v1alpha1' },
  { names: ['cj', 'cronjob', 'cronjobs', 'cronjob.batch'], type: CronJobs, ownerApiVersion: 'batch/v1' },
];

function jobFrom(name: string, namespace: string, source: Source, template: Template | undefined, ownerApiVersion: string): KObject {
  return {
    apiVersion: 'batch/v1', kind: 'Job',
    metadata: {
      name, namespace,
      annotations: { 'cronjob.kubernetes.io/instantiate': 'manual', ...template?.metadata?.annotations },
      ...(template?.metadata?.labels ? { labels: template.metadata.labels } : {}),
      ownerReferences: [{ apiVersion: ownerApiVersion, kind: source.kind!, name: source.metadata.name!, uid: source.metadata.uid! }],
    },
    spec: template?.spec,
  };
}

export async function runCreateJob(name: string, command: string[], o: CreateJobOptions, print: (line: string) => void = console.log): Promise<void> {
  if (!o.image === !o.from) throw new Error('either --image or --from must be specified');
  if (command.length > 0 && o.from) throw new Error('cannot specify --from and command');
  const namespace = o.namespace ?? loadKubeconfig({ path: o.kubeconfig }).namespace ?? 'default';
  const client = createHttpClient({ kubeconfigPath: o.kubeconfig, userAgent: 'kubectl-kruise' });
  let job: KObject;
  if (o.image) {
    job = { apiVersion: 'batch/v1', kind: 'Job', metadata: { name, namespace }, spec: { template: { spec: { containers: [{ name, image: o.image, ...(command.length ? { command } : {}) }], restartPolicy: 'Never' } } } };
  } else {
    const [typeName, sourceName] = o.from!.split('/', 2) as [string, string | undefined];
    const source = sources.find((s) => s.names.includes(typeName.toLowerCase()));
    if (!source || !sourceName) throw new Error(`from must be an existing cronjob or advancedcronjob (TYPE/NAME), got "${o.from}"`);
    const obj = await client.get<Source>(source.type, namespace, sourceName);
    if (source.type === AdvancedCronJobs && obj.status?.type !== 'Job') throw new Error(`from must be a job template, but got ${obj.status?.type ?? ''}`);
    const template = source.type === AdvancedCronJobs ? obj.spec?.template?.jobTemplate : obj.spec?.jobTemplate;
    job = jobFrom(name, namespace, { ...obj, kind: source.type.kind }, template, source.ownerApiVersion);
  }
  try {
    await client.create(Jobs, job);
  } catch (e) {
    throw new Error(`failed to create job: ${(e as Error).message}`);
  }
  print(`job.batch/${name} created`);
}
