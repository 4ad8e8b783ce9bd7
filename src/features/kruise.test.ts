import { test } from 'node:test';
import assert from 'node:assert/strict';
import { kruiseFeatureGates, tryItOutGates } from './kruise.js';

test('defaults follow OpenKruise', () => {
  const g = kruiseFeatureGates();
  assert.equal(g.enabled('PodWebhook'), true);
  assert.equal(g.enabled('WorkloadSpread'), true);
  assert.equal(g.enabled('ResourcesDeletionProtection'), false);
  assert.equal(g.enabled('ImagePullJobGate'), false);
});

test('flags override defaults, meta-gates apply to a stage, explicit values win over meta-gates', () => {
  const g = kruiseFeatureGates('AllAlpha=true,CloneSetShortHash=false,ResourceDistributionGate=true');
  assert.equal(g.enabled('StatefulSetStartOrdinal'), true);
  assert.equal(g.enabled('CloneSetShortHash'), false);
  assert.equal(g.enabled('ResourceDistributionGate'), true);
});

test('dependency rules: PodWebhook off turns pod-webhook features off; pre-download turns ImagePullJobGate on', () => {
  const g = kruiseFeatureGates('PodWebhook=false,PreDownloadImageForInPlaceUpdate=true');
  assert.equal(g.enabled('WorkloadSpread'), false);
  assert.equal(g.enabled('PodUnavailableBudgetDeleteGate'), false);
  assert.equal(g.enabled('ImagePullJobGate'), true);
  assert.equal(kruiseFeatureGates('KruiseDaemon=false', tryItOutGates).enabled('ImagePullJobGate'), false);
  assert.equal(kruiseFeatureGates('DeletionProtectionForCRDCascadingGate=true').enabled('DeletionProtectionForCRDCascadingGate'), false);
});

test('kruise up turns on the try-it-out gates unless told otherwise', () => {
  assert.equal(kruiseFeatureGates('', tryItOutGates).enabled('ResourcesDeletionProtection'), true);
  assert.equal(kruiseFeatureGates('ResourcesDeletionProtection=false', tryItOutGates).enabled('ResourcesDeletionProtection'), false);
});

test('unknown gates and bad values are errors', () => {
  assert.throws(() => kruiseFeatureGates('NoSuchGate=true'), /unrecognized feature gate: NoSuchGate/);
  assert.throws(() => kruiseFeatureGates('PodWebhook=yes'), /invalid feature gate/);
});
