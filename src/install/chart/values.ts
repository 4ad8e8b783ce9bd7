/**
 * The chart's values (charts/kruise/values.yaml), named as OpenKruise's chart names them where they
 * mean the same thing (docs/design/install.md §2). `kruise install -f FILE` reads the same file.
 */
import { kruiseImageRepository, kruiseVersion } from '../../machinery/version.js';

/**
 * V8 flags for `kruise manager` (docs/design/performance.md §6): an old-space cap under the
 * container's 512Mi limit, which also caps how far V8 lets the heap grow past its live data
 * (1.35x instead of up to 4x), and a smaller young generation. The manager shrinks its heap
 * itself when idle (performance.md §15), whatever these flags say.
 */
export const managerNodeOptions = '--max-old-space-size=384 --max-semi-space-size=4';

/**
 * glibc malloc settings of the manager container (docs/design/performance.md §18): two arenas
 * instead of one per thread that ever allocated, and freed memory at the top of the heap handed
 * back from 128 KiB on, with blocks of 128 KiB and more in mappings of their own (glibc would
 * otherwise raise both thresholds up to 32 MiB as such blocks are freed, and keep what a burst used).
 */
export const managerMalloc = { arenaMax: 2, trimThreshold: 131072, topPad: 0, mmapThreshold: 131072 };

/** The environment variable glibc reads for each of `managerMalloc`'s settings. */
export const mallocVariables: Record<keyof typeof managerMalloc, string> = {
  arenaMax: 'MALLOC_ARENA_MAX', trimThreshold: 'MALLOC_TRIM_THRESHOLD_', topPad: 'MALLOC_TOP_PAD_', mmapThreshold: 'MALLOC_MMAP_THRESHOLD_',
};

/** `managerMalloc` as environment variables (the benchmarks' manager; the chart renders the same). */
export function mallocEnv(m: typeof managerMalloc = managerMalloc): Record<string, string> {
  return Object.fromEntries(Object.entries(mallocVariables).map(([key, name]) => [name, String(m[key as keyof typeof managerMalloc])]));
}

export interface ChartValues {
  featureGates: string;
  installation: { namespace: string; createNamespace: boolean };
  crds: { managed: boolean };
  imagePullSecrets: { name: string }[];
  /** Annotations on the webhook configurations, e.g. cert-manager's inject-ca-from; with gate EnableExternalCerts. */
  externalCerts: { annotations: Record<string, string> };
  webhookConfiguration: { failurePolicy: { pods: 'Fail' | 'Ignore' }; timeoutSeconds: number };
  manager: {
    replicas: number;
    image: { repository: string; tag: string; pullPolicy: string };
    log: { level: string };
    webhook: { port: number };
    metrics: { port: number };
    healthProbe: { port: number };
    hostNetwork: boolean;
    /** The manager container's NODE_OPTIONS: V8 heap flags measured in docs/design/performance.md §6. */
    nodeOptions: string;
    /** glibc malloc settings of the manager container, measured in docs/design/performance.md §18. */
    malloc: typeof managerMalloc;
    resources: Record<string, unknown>;
    nodeAffinity: Record<string, unknown>;
    nodeSelector: Record<string, string>;
    tolerations: unknown[];
  };
  daemon: {
    port: number;
    socketLocation: string;
    socketFile: string;
    log: { level: string };
    resources: Record<string, unknown>;
    nodeSelector: Record<string, string>;
    extraEnvs: unknown[];
  };
}

export const defaultChartValues: ChartValues = {
  featureGates: '',
  installation: { namespace: 'kruise-system', createNamespace: true },
  crds: { managed: true },
  imagePullSecrets: [],
  externalCerts: { annotations: {} },
  webhookConfiguration: { failurePolicy: { pods: 'Fail' }, timeoutSeconds: 30 },
  manager: {
    replicas: 2,
    image: { repository: kruiseImageRepository, tag: kruiseVersion, pullPolicy: 'IfNotPresent' },
    log: { level: 'info' },
    webhook: { port: 9876 },
    metrics: { port: 8080 },
    healthProbe: { port: 8000 },
    hostNetwork: false,
    nodeOptions: managerNodeOptions,
    malloc: { ...managerMalloc },
    resources: { limits: { cpu: '200m', memory: '512Mi' }, requests: { cpu: '100m', memory: '256Mi' } },
    nodeAffinity: {},
    nodeSelector: {},
    tolerations: [],
  },
  daemon: {
    port: 10221,
    socketLocation: '/var/run',
    socketFile: '',
    log: { level: 'info' },
    resources: { limits: { cpu: '50m', memory: '128Mi' }, requests: { cpu: '0', memory: '0' } },
    nodeSelector: {},
    extraEnvs: [],
  },
};

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Helm's coalescing of a user values file over the defaults: maps merge key by key, anything else replaces. */
export function mergeValues(base: unknown, over: unknown): unknown {
  if (!isMap(base) || !isMap(over)) return over === undefined ? structuredClone(base) : structuredClone(over);
  const out: Record<string, unknown> = structuredClone(base);
  for (const [k, v] of Object.entries(over)) out[k] = v === null ? undefined : mergeValues(base[k], v);
  return out;
}
