/**
 * Where each Kruise feature gate takes effect (docs/design/feature-gates.md): the files that read it,
 * or the feature kruise-ts has not built yet. A gate of the second kind can be turned on (manifests
 * and charts that set it keep working) but does nothing, so `kruise up` and `kruise manager` warn
 * once and do not list it as on. `readers.test.ts` keeps this table true in both directions.
 */
import type { FeatureGates } from './gates.js';

/** `partly`: files that read the gate for a side of the feature that exists (e.g. its object's webhook). */
export type GateReader = { readBy: string[] } | { missing: string; partly?: string[] } | { always: string };

const by = (...files: string[]): GateReader => ({ readBy: files });
/** Behaviour kruise-ts has whatever the gate says (a departure, recorded). */
const always = (why: string): GateReader => ({ always: why });
const missing = (feature: string, ...partly: string[]): GateReader => ({ missing: feature, ...(partly.length > 0 && { partly }) });

/** Paths are relative to `src/`. */
export const gateReaders: Record<string, GateReader> = {
  PodWebhook: by('api/kruise/webhook-inventory.ts'),
  KruiseDaemon: by('controllers/index.ts', 'daemon/controllers.ts'),
  DaemonWatchingPod: by('daemon/controllers.ts'),
  CloneSetShortHash: by('controllers/cloneset/pass.ts'),
  KruisePodReadinessGate: by('webhooks/pod/readiness-gate.ts'),
  PreDownloadImageForInPlaceUpdate: by('controllers/index.ts'),
  CloneSetPartitionRollback: by('controllers/cloneset/pass.ts'),
  ResourcesDeletionProtection: by('api/kruise/webhook-inventory.ts'),
  WorkloadSpread: by('controllers/index.ts', 'webhooks/workloadspread/gate.ts'),
  PodUnavailableBudgetDeleteGate: by('controllers/index.ts', 'webhooks/podunavailablebudget/pod-validation.ts'),
  PodUnavailableBudgetUpdateGate: by('controllers/index.ts', 'webhooks/podunavailablebudget/pod-validation.ts', 'controllers/cloneset/update.ts', 'control/pubcontrol/workload-check.ts'),
  TemplateNoDefaults: by('webhooks/common/template-defaults.ts'),
  InPlaceUpdateEnvFromMetadata: by('controllers/cloneset/reconcile.ts', 'controllers/statefulset/index.ts', 'controllers/daemonset/index.ts', 'daemon/containermeta/index.ts'),
  StatefulSetAutoDeletePVC: by('controllers/statefulset/claim-control.ts'),
  SidecarSetPatchPodMetadataDefaultsAllowed: by('webhooks/sidecarset/validating.ts'),
  SidecarTerminator: by('controllers/index.ts'),
  PodProbeMarkerGate: by('controllers/index.ts', 'daemon/controllers.ts'),
  PreDownloadImageForDaemonSetUpdate: by('controllers/index.ts'),
  CloneSetEventHandlerOptimization: missing("upstream's CloneSet event filter (a performance option; every owned pod change is handled)"),
  PreparingUpdateAsUpdate: by('controllers/cloneset/pass.ts', 'controllers/statefulset/rolling-update.ts'),
  ImagePullJobGate: by('controllers/index.ts'),
  ResourceDistributionGate: by('controllers/index.ts', 'webhooks/resourcedistribution/index.ts'),
  DeletionProtectionForCRDCascadingGate: by('webhooks/protection/rules.ts'),
  EnhancedLivenessProbe: missing('enhanced liveness probes (NodePodProbe-driven container restarts)'),
  RecreatePodWhenChangeVCTInCloneSetGate: by('controllers/cloneset/update.ts'),
  StatefulSetStartOrdinal: by('controllers/statefulset/ordinals.ts'),
  PodIndexLabel: by('controllers/statefulset/identity.ts'),
  EnableExternalCerts: missing('external webhook certificates (the manager always issues its own)'),
  StatefulSetAutoResizePVCGate: by('controllers/statefulset/claim-resize.ts'),
  ForceDeleteTimeoutExpectationGate: always('expectations are dropped after 5 minutes whatever the gate (docs/departures-from-openkruise.md)'),
  InPlaceWorkloadVerticalScaling: missing('in-place resource resize (the plane serves no pods/resize)'),
  EnablePodProbeMarkerOnServerless: by('controllers/podprobemarker/reconcile.ts', 'webhooks/pod/probe-marker.ts'),
  EnableSortSidecarContainerByName: by('webhooks/pod/sidecarset.ts'),
  InPlacePodVerticalScaling: missing('in-place resource resize (the plane serves no pods/resize)', 'webhooks/podunavailablebudget/pod-validation.ts'),
  DefaultHostNetworkHostPortsInPodTemplates: by('webhooks/common/pod-template.ts'),
  DaemonSetPruneIneligibleNodes: missing('pruning of Advanced DaemonSet pods on ineligible nodes'),
};

export interface GateReport {
  /** Enabled gates that take effect. */
  on: string[];
  /** Enabled gates whose feature is not built: name and what is missing. */
  withoutEffect: { name: string; missing: string }[];
}

export function gateReport(gates: FeatureGates): GateReport {
  const report: GateReport = { on: [], withoutEffect: [] };
  for (const name of gates.enabledNames()) {
    const reader = gateReaders[name];
    if (reader && 'missing' in reader) report.withoutEffect.push({ name, missing: reader.missing });
    else report.on.push(name);
  }
  return report;
}

/** The start-up lines: gates on, then one warning per gate that does nothing here. */
export function gateReportLines(gates: FeatureGates): string[] {
  const { on, withoutEffect } = gateReport(gates);
  return [
    `kruise feature gates on: ${on.join(', ') || '(none)'}`,
    ...withoutEffect.map((g) => `warning: feature gate ${g.name} is on but has no effect here yet (missing: ${g.missing})`),
  ];
}
