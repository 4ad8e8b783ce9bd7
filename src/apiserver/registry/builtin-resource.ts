/** A built-in resource the embedded API server serves: its discovery record, strategy and own subresources. */
import type { KObject } from '../../api/meta.js';
import type { ResourceDefinition } from '../../api/resource.js';
import type { ResourceStrategy } from './strategy.js';
import type { SubresourceStorage } from './subresource.js';

export interface BuiltinResource {
  definition: ResourceDefinition;
  strategy: ResourceStrategy;
  /** True when metadata.generation is kept and bumped on spec changes (workloads, CRDs...). */
  tracksGeneration: boolean;
  /** Storages of subresources beyond the generic status and scale (pods/binding, namespaces/finalize, ...). */
  subresources?: Record<string, SubresourceStorage>;
  /** A second version of a kind stored under another version (autoscaling/v1 HPAs are stored as v2): where, and how to convert. */
  storedAs?: { group: string; plural: string; apiVersion: string; convert(obj: KObject, to: string): KObject };
}
