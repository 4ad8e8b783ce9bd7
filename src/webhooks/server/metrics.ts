/** controller-runtime's webhook metrics, on the manager's registry when given one. */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';

export interface WebhookMetrics {
  registry: Registry;
  /** Call at the start of a request; the returned function records its end with the HTTP code. */
  begin(webhook: string): (code: number) => void;
}

export function createWebhookMetrics(registry = new Registry()): WebhookMetrics {
  const total = new Counter({
    name: 'controller_runtime_webhook_requests_total', help: 'Total number of admission requests by HTTP status code.',
    labelNames: ['webhook', 'code'], registers: [registry],
  });
  const inFlight = new Gauge({
    name: 'controller_runtime_webhook_requests_in_flight', help: 'Current number of admission requests being served.',
    labelNames: ['webhook'], registers: [registry],
  });
  const latency = new Histogram({
    name: 'controller_runtime_webhook_latency_seconds', help: 'Histogram of the latency of processing admission requests',
    labelNames: ['webhook'], registers: [registry],
  });
  return {
    registry,
    begin(webhook) {
      const stop = latency.startTimer({ webhook });
      inFlight.inc({ webhook });
      return (code) => {
        stop();
        inFlight.dec({ webhook });
        total.inc({ webhook, code: String(code) });
      };
    },
  };
}
