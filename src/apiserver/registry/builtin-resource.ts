/** A built-in resource the embedded API server serves: its discovery record plus its strategy. */
import type { ResourceDefinition } from '../../api/resource.js';
import type { ResourceStrategy } from './strategy.js';

export interface BuiltinResource {
  definition: ResourceDefinition;
  strategy: ResourceStrategy;
  /** True when metadata.generation is kept and bumped on spec changes (workloads, CRDs...). */
  tracksGeneration: boolean;
}
