import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { KObject } from '../../../api/meta.js';
import { allVerbs } from '../../../api/resource.js';
import { builtinResources } from './index.js';

type Row = [group: string, plural: string, kind: string, namespaced: boolean, shortNames: string[], categories: string[],
  subresources: string[], tracksGeneration: boolean];

/** What kube-apiserver 1.32 discovery shows for each resource we serve. */
const expected: Row[] = [
  ['', 'bindings', 'Binding', true, [], [], [], false],
  ['', 'componentstatuses', 'ComponentStatus', false, ['cs'], [], [], false],
  ['', 'configmaps', 'ConfigMap', true, ['cm'], [], [], false],
  ['', 'endpoints', 'Endpoints', true, ['ep'], [], [], false],
  ['', 'events', 'Event', true, ['ev'], [], [], false],
  ['', 'limitranges', 'LimitRange', true, ['limits'], [], [], false],
  ['', 'namespaces', 'Namespace', false, ['ns'], [], ['finalize', 'status'], false],
  ['', 'nodes', 'Node', false, ['no'], [], ['status'], false],
  ['', 'persistentvolumeclaims', 'PersistentVolumeClaim', true, ['pvc'], [], ['status'], false],
  ['', 'persistentvolumes', 'PersistentVolume', false, ['pv'], [], ['status'], false],
  ['', 'pods', 'Pod', true, ['po'], ['all'], ['attach', 'binding', 'ephemeralcontainers', 'eviction', 'exec', 'log', 'portforward', 'status'], false],
  ['', 'podtemplates', 'PodTemplate', true, [], [], [], true],
  ['', 'replicationcontrollers', 'ReplicationController', true, ['rc'], ['all'], ['scale', 'status'], true],
  ['', 'resourcequotas', 'ResourceQuota', true, ['quota'], [], ['status'], false],
  ['', 'secrets', 'Secret', true, [], [], [], false],
  ['', 'serviceaccounts', 'ServiceAccount', true, ['sa'], [], ['token'], false],
  ['', 'services', 'Service', true, ['svc'], ['all'], ['status'], false],
  ['apiregistration.k8s.io', 'apiservices', 'APIService', false, [], ['api-extensions'], ['status'], false],
  ['apps', 'controllerrevisions', 'ControllerRevision', true, [], [], [], false],
  ['apps', 'daemonsets', 'DaemonSet', true, ['ds'], ['all'], ['status'], true],
  ['apps', 'deployments', 'Deployment', true, ['deploy'], ['all'], ['scale', 'status'], true],
  ['apps', 'replicasets', 'ReplicaSet', true, ['rs'], ['all'], ['scale', 'status'], true],
  ['apps', 'statefulsets', 'StatefulSet', true, ['sts'], ['all'], ['scale', 'status'], true],
  ['events.k8s.io', 'events', 'Event', true, ['ev'], [], [], false],
  ['authentication.k8s.io', 'selfsubjectreviews', 'SelfSubjectReview', false, [], [], [], false],
  ['authentication.k8s.io', 'tokenreviews', 'TokenReview', false, [], [], [], false],
  ['authorization.k8s.io', 'localsubjectaccessreviews', 'LocalSubjectAccessReview', true, [], [], [], false],
  ['authorization.k8s.io', 'selfsubjectaccessreviews', 'SelfSubjectAccessReview', false, [], [], [], false],
  ['authorization.k8s.io', 'selfsubjectrulesreviews', 'SelfSubjectRulesReview', false, [], [], [], false],
  ['authorization.k8s.io', 'subjectaccessreviews', 'SubjectAccessReview', false, [], [], [], false],
  ['autoscaling', 'horizontalpodautoscalers', 'HorizontalPodAutoscaler', true, ['hpa'], ['all'], ['status'], false],
  ['batch', 'cronjobs', 'CronJob', true, ['cj'], ['all'], ['status'], true],
  ['batch', 'jobs', 'Job', true, [], ['all'], ['status'], true],
  ['certificates.k8s.io', 'certificatesigningrequests', 'CertificateSigningRequest', false, ['csr'], [], ['approval', 'status'], false],
  ['networking.k8s.io', 'ingressclasses', 'IngressClass', false, [], [], [], true],
  ['networking.k8s.io', 'ingresses', 'Ingress', true, ['ing'], [], ['status'], true],
  ['networking.k8s.io', 'networkpolicies', 'NetworkPolicy', true, ['netpol'], [], [], true],
  ['policy', 'poddisruptionbudgets', 'PodDisruptionBudget', true, ['pdb'], [], ['status'], true],
  ['rbac.authorization.k8s.io', 'clusterrolebindings', 'ClusterRoleBinding', false, [], [], [], false],
  ['rbac.authorization.k8s.io', 'clusterroles', 'ClusterRole', false, [], [], [], false],
  ['rbac.authorization.k8s.io', 'rolebindings', 'RoleBinding', true, [], [], [], false],
  ['rbac.authorization.k8s.io', 'roles', 'Role', true, [], [], [], false],
  ['storage.k8s.io', 'csidrivers', 'CSIDriver', false, [], [], [], false],
  ['storage.k8s.io', 'csinodes', 'CSINode', false, [], [], [], false],
  ['storage.k8s.io', 'csistoragecapacities', 'CSIStorageCapacity', true, [], [], [], false],
  ['storage.k8s.io', 'storageclasses', 'StorageClass', false, ['sc'], [], [], false],
  ['storage.k8s.io', 'volumeattachments', 'VolumeAttachment', false, [], [], ['status'], false],
  ['admissionregistration.k8s.io', 'mutatingwebhookconfigurations', 'MutatingWebhookConfiguration', false, [], ['api-extensions'], [], true],
  ['admissionregistration.k8s.io', 'validatingadmissionpolicies', 'ValidatingAdmissionPolicy', false, [], ['api-extensions'], ['status'], true],
  ['admissionregistration.k8s.io', 'validatingadmissionpolicybindings', 'ValidatingAdmissionPolicyBinding', false, [], ['api-extensions'], [], true],
  ['admissionregistration.k8s.io', 'validatingwebhookconfigurations', 'ValidatingWebhookConfiguration', false, [], ['api-extensions'], [], true],
  ['apiextensions.k8s.io', 'customresourcedefinitions', 'CustomResourceDefinition', false, ['crd', 'crds'], ['api-extensions'], ['status'], true],
  ['scheduling.k8s.io', 'priorityclasses', 'PriorityClass', false, ['pc'], [], [], true],
  ['coordination.k8s.io', 'leases', 'Lease', true, [], [], [], false],
  ['node.k8s.io', 'runtimeclasses', 'RuntimeClass', false, [], [], [], false],
  ['discovery.k8s.io', 'endpointslices', 'EndpointSlice', true, [], [], [], true],
  ['flowcontrol.apiserver.k8s.io', 'flowschemas', 'FlowSchema', false, [], [], ['status'], true],
  ['flowcontrol.apiserver.k8s.io', 'prioritylevelconfigurations', 'PriorityLevelConfiguration', false, [], [], ['status'], true],
];

const all = builtinResources();
/** The v1 entries; autoscaling/v2 (HPAs' preferred version) and metrics.k8s.io/v1beta1 are checked on their own. */
const resources = all.filter((r) => r.definition.version === 'v1');

describe('built-in catalogue', () => {
  test('exactly the expected resources, in discovery order', () => {
    assert.deepEqual(resources.map((r) => [r.definition.group, r.definition.plural]), expected.map((e) => [e[0], e[1]]));
  });

  for (const [group, plural, kind, namespaced, shortNames, categories, subresources, tracksGeneration] of expected) {
    test(`${plural}.${group || 'core'}`, () => {
      const r = resources.find((x) => x.definition.group === group && x.definition.plural === plural)!;
      const d = r.definition;
      assert.equal(d.kind, kind);
      assert.equal(d.listKind, `${kind}List`);
      assert.equal(d.singular, kind.toLowerCase());
      assert.equal(d.version, 'v1');
      assert.equal(d.namespaced, namespaced);
      assert.deepEqual(d.shortNames ?? [], shortNames);
      assert.deepEqual(d.categories ?? [], categories);
      const subs = [...(d.subresources?.extra ?? []), ...(d.subresources?.status ? ['status'] : []), ...(d.subresources?.scale ? ['scale'] : [])];
      assert.deepEqual(subs.sort(), subresources);
      assert.equal(r.tracksGeneration, tracksGeneration);
      const verbs = plural.endsWith('reviews') || plural === 'bindings' ? ['create']
        : plural === 'componentstatuses' ? ['get', 'list']
          : plural === 'namespaces' ? allVerbs.filter((v) => v !== 'deletecollection') : allVerbs;
      assert.deepEqual(d.verbs, verbs);
    });
  }

  test('versions beyond v1: autoscaling/v2 HPAs stored for both versions, metrics.k8s.io read-only', () => {
    const others = all.filter((r) => r.definition.version !== 'v1').map((r) => [r.definition.group, r.definition.version, r.definition.plural, r.definition.verbs.join(',')]);
    assert.deepEqual(others, [
      ['autoscaling', 'v2', 'horizontalpodautoscalers', allVerbs.join(',')],
      ['metrics.k8s.io', 'v1beta1', 'nodes', 'get,list'],
      ['metrics.k8s.io', 'v1beta1', 'pods', 'get,list'],
    ]);
    const v1 = all.find((r) => r.definition.group === 'autoscaling' && r.definition.version === 'v1')!;
    assert.deepEqual([v1.storedAs?.plural, v1.storedAs?.apiVersion], ['horizontalpodautoscalers', 'autoscaling/v2']);
  });

  test('apps/v1 scale maps replicas and the selector', () => {
    const d = resources.find((r) => r.definition.plural === 'deployments')!.definition;
    assert.deepEqual(d.subresources?.scale, { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.spec.selector' });
  });

  test('every strategy copes with a bare object', () => {
    for (const r of resources) {
      const obj: KObject = { metadata: { name: 'x', namespace: r.definition.namespaced ? 'default' : undefined, uid: 'u' } };
      r.strategy.default?.(obj);
      r.strategy.prepareForCreate?.(obj);
      assert.doesNotThrow(() => r.strategy.validate?.(obj), r.definition.plural);
      assert.doesNotThrow(() => r.strategy.validateUpdate?.(obj, structuredClone(obj)), r.definition.plural);
    }
  });

  test('field attributes describe an empty probe (how the registry learns supported field selectors)', () => {
    const probe = (): KObject => ({ metadata: {}, spec: {}, status: {}, involvedObject: {}, source: {} });
    const fields = (plural: string, group = '') =>
      Object.keys(resources.find((r) => r.definition.plural === plural && r.definition.group === group)!.strategy.fieldAttributes?.(probe()) ?? {}).sort();
    assert.deepEqual(fields('pods'), ['spec.hostNetwork', 'spec.nodeName', 'spec.restartPolicy', 'spec.schedulerName',
      'spec.serviceAccountName', 'status.nominatedNodeName', 'status.phase', 'status.podIP']);
    assert.deepEqual(fields('events'), ['involvedObject.apiVersion', 'involvedObject.fieldPath', 'involvedObject.kind', 'involvedObject.name',
      'involvedObject.namespace', 'involvedObject.resourceVersion', 'involvedObject.uid', 'reason', 'reportingComponent', 'source', 'type']);
    assert.deepEqual(fields('secrets'), ['type']);
    assert.deepEqual(fields('nodes'), ['spec.unschedulable']);
    assert.deepEqual(fields('namespaces'), ['status.phase']);
    assert.deepEqual(fields('replicasets', 'apps'), ['status.replicas']);
    assert.deepEqual(fields('jobs', 'batch'), ['status.successful']);
    assert.deepEqual(fields('events', 'events.k8s.io'), []);
  });
});
