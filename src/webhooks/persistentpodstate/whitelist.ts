/**
 * The custom workload kinds a PersistentPodState may target besides StatefulSets: key
 * `PPS_Watch_Custom_Workload_WhiteList` of ConfigMap `<kruise namespace>/kruise-configuration`,
 * JSON `{"workloads": [{"Group", "Version", "Kind"}]}`. A missing ConfigMap or key means none.
 */
import { ConfigMaps } from '../../api/resource-type.js';
import type { Client } from '../../client/client.js';
import { isNotFound } from '../../machinery/errors.js';
import { parseGroupVersion } from '../common/target-ref.js';

export const KruiseConfigurationName = 'kruise-configuration';
export const PPSWatchCustomWorkloadWhiteList = 'PPS_Watch_Custom_Workload_WhiteList';

export interface WorkloadKind { Group?: string; Version?: string; Kind?: string }

export async function readPPSWhiteList(client: Client, kruiseNamespace: string): Promise<WorkloadKind[]> {
  let data: Record<string, string> | undefined;
  try {
    const cm = await client.get(ConfigMaps, kruiseNamespace, KruiseConfigurationName);
    data = cm.data as Record<string, string> | undefined;
  } catch (e) {
    if (isNotFound(e)) return [];
    throw e;
  }
  const raw = data?.[PPSWatchCustomWorkloadWhiteList];
  if (!raw) return [];
  const parsed = JSON.parse(raw) as { workloads?: WorkloadKind[] };
  return parsed.workloads ?? [];
}

/** StatefulSets of `apps` and `apps.kruise.io` always; other kinds when whitelisted (by group and kind). */
export function isSupportedTarget(apiVersion: string, kind: string, whiteList: WorkloadKind[]): boolean {
  const gv = parseGroupVersion(apiVersion);
  if (gv instanceof Error) return false;
  if ((gv.group === 'apps' || gv.group === 'apps.kruise.io') && kind === 'StatefulSet') return true;
  return whiteList.some((w) => (w.Group ?? '') === gv.group && w.Kind === kind);
}
