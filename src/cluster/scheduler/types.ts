/**
 * The core/v1 kinds the scheduler reads (declared once in api/core) and its constants.
 */

export type { NodeSelectorOperator } from '../../machinery/scheduling/index.js';

export const DEFAULT_SCHEDULER = 'default-scheduler';
export const LABEL_HOSTNAME = 'kubernetes.io/hostname';
export const LABEL_ZONE = 'topology.kubernetes.io/zone';

