/**
 * Creating and deleting a workload's pods the way every controller here does it (Kruise and
 * built-in alike): creates in slow-start batches, deletes under expectations with a UID precondition.
 */
export * from './create.js';
export * from './delete.js';
export * from './slow-start.js';
