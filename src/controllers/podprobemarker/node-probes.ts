/**
 * The NodePodProbe spec a PodProbeMarker wants (docs/design/pod-probes.md §2), pure: every entry of
 * a pod it matches carries exactly its probes, named `<marker>#<probe>` beside other markers'
 * probes (kept in place, new ones appended, the pod IP filled when empty); entries of pods it does
 * not match carry none of its probes; an entry left without probes is dropped. Named tcpSocket and
 * httpGet ports become the container's port numbers; a name that resolves to nothing leaves that
 * probe out for the pod.
 */
import type { Container, Pod } from '../../api/core/index.js';
import type { NodePodProbe } from '../../api/kruise/ops/nodepodprobe.js';
import { NodePodProbeNameSeparator } from '../../api/kruise/ops/nodepodprobe.js';
import type { PodProbeMarker } from '../../api/kruise/ops/podprobemarker.js';

export type NodeProbeSpec = NonNullable<NodePodProbe['spec']>;
type PodEntry = NonNullable<NodeProbeSpec['podProbes']>[number];
type ContainerProbe = NonNullable<PodEntry['probes']>[number];
type MarkerProbe = NonNullable<PodProbeMarker['spec']>['probes'][number];

export const probeNameOf = (marker: string, probe: string): string => `${marker}${NodePodProbeNameSeparator}${probe}`;
export const isMarkerProbe = (marker: string, name: string): boolean => name.startsWith(`${marker}${NodePodProbeNameSeparator}`);

function resolvePort(port: number | string, container: Container | undefined): number | undefined {
  if (typeof port === 'number') return port;
  if (/^\d+$/.test(port)) return Number(port);
  return container?.ports?.find((p) => p.name === port)?.containerPort;
}

/** The probe as the daemon gets it, with named ports resolved; undefined when one cannot be. */
export function podContainerProbe(marker: string, probe: MarkerProbe, pod: Pod): ContainerProbe | undefined {
  const container = [...pod.spec.containers, ...(pod.spec.initContainers ?? [])].find((c) => c.name === probe.containerName);
  const spec = structuredClone(probe.probe);
  for (const action of [spec.tcpSocket, spec.httpGet]) {
    if (!action) continue;
    const port = resolvePort(action.port, container);
    if (port === undefined) return undefined;
    action.port = port;
  }
  return { name: probeNameOf(marker, probe.name), containerName: probe.containerName, probe: spec };
}

export function desiredNodeSpec(spec: NodeProbeSpec, ppm: PodProbeMarker, matched: Pod[]): NodeProbeSpec {
  const marker = ppm.metadata.name!;
  const namespace = ppm.metadata.namespace!;
  const wanted = (pod: Pod) => (ppm.spec?.probes ?? []).map((p) => podContainerProbe(marker, p, pod)).filter((p): p is ContainerProbe => !!p);
  const byUid = new Map(matched.map((p) => [p.metadata.uid!, p]));
  const entries: PodEntry[] = [];
  for (const entry of spec.podProbes ?? []) {
    const pod = entry.namespace === namespace ? byUid.get(entry.uid) : undefined;
    byUid.delete(entry.uid);
    const ours = pod ? wanted(pod) : [];
    const probes = (entry.probes ?? []).flatMap((p) => {
      if (entry.namespace !== namespace || !isMarkerProbe(marker, p.name)) return [p];
      const want = ours.find((w) => w.name === p.name);
      return want ? [want] : [];
    });
    for (const w of ours) if (!probes.some((p) => p.name === w.name)) probes.push(w);
    if (probes.length > 0) entries.push({ ...entry, IP: entry.IP || (pod?.status?.podIP ?? ''), probes });
  }
  for (const pod of byUid.values()) {
    const probes = wanted(pod);
    if (probes.length > 0) entries.push({ name: pod.metadata.name!, namespace, uid: pod.metadata.uid!, IP: pod.status?.podIP ?? '', probes });
  }
  return { ...spec, podProbes: entries };
}
