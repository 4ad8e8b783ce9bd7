/** Prometheus metrics of the API server, in the names kube-apiserver uses where one exists. */
import { Counter, Gauge, Histogram, Registry as PromRegistry } from 'prom-client';

export const promRegistry = new PromRegistry();

export const metrics = {
  requests: new Counter({
    name: 'apiserver_request_total', help: 'Counter of apiserver requests broken out by verb, resource and HTTP response code.',
    labelNames: ['verb', 'group', 'resource', 'subresource', 'code'] as const, registers: [promRegistry],
  }),
  latency: new Histogram({
    name: 'apiserver_request_duration_seconds', help: 'Response latency distribution in seconds for each verb and resource.',
    labelNames: ['verb', 'group', 'resource'] as const, registers: [promRegistry],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  }),
  watchers: new Gauge({ name: 'apiserver_registered_watchers', help: 'Number of currently open watches.', registers: [promRegistry] }),
  watchExpired: new Counter({ name: 'apiserver_watch_expired_total', help: 'Watches answered with 410 Expired (resourceVersion older than the history).', registers: [promRegistry] }),
  storeObjects: new Gauge({ name: 'apiserver_storage_objects_total', help: 'Number of stored objects.', registers: [promRegistry] }),
  storeBytes: new Gauge({ name: 'apiserver_storage_size_bytes', help: 'Approximate size of the stored objects in bytes.', registers: [promRegistry] }),
  webhookAdmissionDuration: new Histogram({
    name: 'apiserver_admission_webhook_admission_duration_seconds',
    help: 'Admission webhook latency histogram in seconds, identified by name and broken out for each operation and type (validating or admit).',
    labelNames: ['name', 'type', 'operation', 'rejected'] as const, registers: [promRegistry],
    buckets: [0.005, 0.025, 0.1, 0.5, 1, 2.5, 10, 25],
  }),
};
