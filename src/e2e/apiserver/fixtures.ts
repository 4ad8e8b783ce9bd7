/** Manifests used by the API server end-to-end tests. */

export const widgetCrd = `
apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: widgets.example.com
spec:
  group: example.com
  scope: Namespaced
  names: { plural: widgets, singular: widget, kind: Widget, shortNames: [wd], categories: [all] }
  versions:
  - name: v1
    served: true
    storage: true
    subresources:
      status: {}
      scale: { specReplicasPath: .spec.replicas, statusReplicasPath: .status.replicas, labelSelectorPath: .status.selector }
    additionalPrinterColumns:
    - { name: Replicas, type: integer, jsonPath: .spec.replicas }
    - { name: Color, type: string, jsonPath: .spec.color }
    - { name: Age, type: date, jsonPath: .metadata.creationTimestamp }
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [color]
            properties:
              replicas: { type: integer, minimum: 0, default: 1 }
              color: { type: string, enum: [red, green, blue] }
              size: { x-kubernetes-int-or-string: true }
              extra: { type: object, x-kubernetes-preserve-unknown-fields: true }
          status:
            type: object
            properties:
              replicas: { type: integer }
              selector: { type: string }
`;

export const deployment = (image: string) => `
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  labels: { app: web }
spec:
  replicas: 2
  selector: { matchLabels: { app: web } }
  template:
    metadata: { labels: { app: web } }
    spec:
      containers:
      - name: a
        image: ${image}
        env: [{ name: X, value: "1" }]
      - name: b
        image: busybox:1
`;
