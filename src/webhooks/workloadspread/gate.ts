/** Feature gate of WorkloadSpread (beta, on by default): its validation and its pod steps. */
export const WorkloadSpreadGate = 'WorkloadSpread';
