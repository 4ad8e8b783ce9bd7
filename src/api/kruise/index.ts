/** Every Kruise kind, in apps.kruise.io and policy.kruise.io, and their CRDs. */
import type { KObject } from '../meta.js';
import { crdOf, type KindDefinition } from './define-kind.js';
import { workloadKinds } from './workloads/index.js';
import { opsKinds } from './ops/index.js';

export const kruiseKinds: KindDefinition[] = [...workloadKinds, ...opsKinds];

export function kruiseCrds(): KObject[] {
  return kruiseKinds.map(crdOf);
}
