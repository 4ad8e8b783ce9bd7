/**
 * The built-in kinds the kube-controller-manager controllers use (declared once in api/core) and
 * the object key they queue under.
 */
import type { KObject } from '../../../api/meta.js';
import type { DeploymentCondition } from '../../../api/core/index.js';

/** A ReplicaSet or Deployment condition: a ReplicaSetCondition is one without lastUpdateTime. */
export type WorkloadCondition = DeploymentCondition;

/** `<namespace>/<name>`: the key controllers and expectations use. */
export function keyOfObject(obj: KObject): string {
  return obj.metadata.namespace ? `${obj.metadata.namespace}/${obj.metadata.name}` : `${obj.metadata.name}`;
}
