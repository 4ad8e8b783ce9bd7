/**
 * Test data: the example manifests of the Kruise workload kinds from OpenKruise's user manuals and
 * behaviour specs, copied verbatim: the base CloneSet `demo`, Advanced StatefulSet `web` and
 * Advanced DaemonSet `agent` of the acceptance scenarios (docs/design/cloneset.md §13,
 * docs/design/advanced-statefulset.md §12, docs/design/advanced-daemonset.md §11), a WorkloadSpread
 * and a UnitedDeployment (docs/design/kruise-api.md §10). The examples of the other Kruise kinds are
 * in ../ops/spec-examples.fixture.ts.
 */

export interface Example { name: string; yaml: string }

/** One YAML document per example, each with an apps.kruise.io apiVersion. */
export const workloadSpecManifests: Example[] = [
  { name: 'CloneSet demo', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: CloneSet
metadata: {name: demo}
spec:
  replicas: 3
  selector: {matchLabels: {app: demo}}
  template:
    metadata: {labels: {app: demo}}
    spec: {containers: [{name: web, image: nginx:1.25-alpine}]}
` },
  { name: 'StatefulSet web', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: StatefulSet
metadata: {name: web}
spec:
  replicas: 3
  serviceName: web
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      readinessGates: [{conditionType: InPlaceUpdateReady}]
      containers: [{name: app, image: nginx:1.25-alpine}]
` },
  { name: 'DaemonSet agent', yaml: `apiVersion: apps.kruise.io/v1beta1
kind: DaemonSet
metadata: {name: agent}
spec:
  selector: {matchLabels: {app: agent}}
  template:
    metadata: {labels: {app: agent}}
    spec: {containers: [{name: agent, image: nginx:1.25-alpine}]}
` },
  { name: 'WorkloadSpread spread', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: WorkloadSpread
metadata: {name: spread, namespace: ws1}
spec:
  targetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  subsets:
  - {name: za, maxReplicas: 2, requiredNodeSelectorTerm: {matchExpressions: [{key: zone, operator: In, values: [a]}]}}
  - {name: zb, requiredNodeSelectorTerm: {matchExpressions: [{key: zone, operator: In, values: [b]}]}}
# plus Deployment ws1/web, 4 replicas, label app=web, one busybox container
` },
  { name: 'UnitedDeployment demo', yaml: `apiVersion: apps.kruise.io/v1alpha1
kind: UnitedDeployment
metadata: {name: demo, namespace: ud1}
spec:
  replicas: 5
  selector: {matchLabels: {app: demo}}
  template:
    cloneSetTemplate:
      metadata: {labels: {app: demo}}
      spec:
        selector: {matchLabels: {app: demo}}
        template: {metadata: {labels: {app: demo}}, spec: {containers: [{name: c, image: busybox}]}}
  topology:
    subsets:
    - {name: a, nodeSelectorTerm: {matchExpressions: [{key: zone, operator: In, values: [a]}]}}
    - {name: b, nodeSelectorTerm: {matchExpressions: [{key: zone, operator: In, values: [b]}]}}
    - {name: c, nodeSelectorTerm: {matchExpressions: [{key: zone, operator: In, values: [c]}]}}
` },
];
