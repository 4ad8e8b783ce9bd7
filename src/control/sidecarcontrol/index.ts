/** SidecarSet logic shared by the pod webhook and the SidecarSet controller (docs/design/sidecarset.md). */
export * from './container-build.js';
export * from './history.js';
export * from './hot-upgrade.js';
export * from './inject.js';
export * from './match.js';
export * from './patch-metadata.js';
export * from './upgrade-spec.js';
export * from './explain.js';
