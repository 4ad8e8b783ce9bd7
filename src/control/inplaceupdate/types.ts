/**
 * Shapes the in-place update engine reads and writes: the update spec computed from two
 * ControllerRevisions and the state recorded on the pod
 * (docs/design/inplace-update.md §3). Pods stay plain JSON; unknown fields are carried along untouched.
 */
import type { ControllerRevision, Pod, ResourceRequirements } from '../../api/core/index.js';


/** Labels/annotations a container references through env fieldRef (applied with its batch). */
export interface RefMetadata {
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

/** A merge patch over pod metadata: a value sets the key, null removes it (null map: remove all). */
export interface MetadataPatch {
  labels?: Record<string, string | null> | null;
  annotations?: Record<string, string | null> | null;
}

/** What one in-place update changes (upstream UpdateSpec). */
export interface UpdateSpec {
  /** Target revision as written to the pod (revision name; ADS: bare hash). */
  revision: string;
  containerImages: Record<string, string>;
  containerRefMetadata: Record<string, RefMetadata>;
  containerResources: Record<string, ResourceRequirements>;
  metaDataPatch?: MetadataPatch;
  updateEnvFromMetadata: boolean;
  graceSeconds: number;
}

export interface InPlaceUpdateContainerStatus {
  imageID?: string;
  resources?: ResourceRequirements;
}

export interface ContainerBatch {
  timestamp: string;
  containers: string[];
}

/** JSON of annotation `apps.kruise.io/inplace-update-state`. */
export interface InPlaceUpdateState {
  revision: string;
  updateTimestamp: string;
  lastContainerStatuses: Record<string, InPlaceUpdateContainerStatus>;
  updateEnvFromMetadata?: boolean;
  updateImages?: boolean;
  updateResources?: boolean;
  nextContainerImages?: Record<string, string>;
  nextContainerRefMetadata?: Record<string, RefMetadata>;
  nextContainerResources?: Record<string, ResourceRequirements>;
  preCheckBeforeNext?: { containersRequiredReady?: string[] };
  containerBatchesRecord?: ContainerBatch[];
}

/** Caller switches (feature gates and per-kind differences). */
export interface InPlaceUpdateOptions {
  /** Seconds between marking the pod not-ready and changing its images (strategy gracePeriodSeconds). */
  graceSeconds?: number;
  /** Gate InPlaceUpdateEnvFromMetadata (needs the node daemon writing runtime-containers-meta). */
  envFromMetadata?: boolean;
  /** Gate InPlaceWorkloadVerticalScaling: cpu/memory value changes are in place. */
  verticalScaling?: boolean;
  /** Revision value written to the pod; default the revision name (ADS passes the bare hash). */
  getRevision?: (revision: ControllerRevision) => string;
  /** Revision labels for a target revision; default `{controller-revision-hash: revision}`. */
  revisionLabels?: (revision: string) => Record<string, string>;
  /** Applied to the pod in the same update (CloneSet/ASTS set lifecycle state `Updating`). */
  hooks?: ((pod: Pod) => void)[];
  /**
   * Asked before each write attempt with the pod that attempt writes over (the caller's copy, then
   * the pod read afresh after a conflict), so a PUB check judges exactly the version the write is
   * conditioned on (docs/design/podunavailablebudget.md §11); false: nothing is written.
   */
  admit?: (pod: Pod) => Promise<boolean>;
}
