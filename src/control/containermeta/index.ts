/** Runtime container meta and the extracted-env hash, shared by the node daemon and the in-place update engine (docs/design/container-meta.md). */
export * from './env-hash.js';
export * from './meta-set.js';
