/** Server-side apply and managedFields tracking: pure functions over plain JSON objects. */
export type { ListType, TypeHints } from './type-hints.js';
export { defaultHints, hintsFromFunction } from './type-hints.js';
export {
  FieldSet, canonicalJson, compareElements, fieldSetFromObject, fieldSetFromValue, fromFieldsV1, listItemElement,
  pathString, toFieldsV1,
} from './field-set.js';
export type { Comparison, Manager, UpdateOptions } from './managed-fields.js';
export {
  applyUpdate, compareObjects, decodeManagedFields, encodeManagedFields, isResetManagedFields, managerId, recordUpdate,
  untrackedMetadata,
} from './managed-fields.js';
export type { ApplyOptions } from './apply.js';
export { beforeFirstApply, serverSideApply } from './apply.js';
