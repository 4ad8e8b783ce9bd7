/**
 * A CloneSet autoscaled by an HPA (docs/design/autoscaling.md §6): `kubectl autoscale clone/web`,
 * `kubectl top`, then simulated usage (`metrics.kruise.io/usage`) rising past the target scales out
 * to maxReplicas (ScalingLimited TooManyReplicas), and falling holds the size during the scale-down
 * stabilization window (ScaleDownStabilized) before scaling in to minReplicas. The controller's sync
 * period is shortened to 200 ms; the window is the HPA's own `behavior.scaleDown`.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CloneSets } from '../../api/kruise/resource-types.js';
import { HorizontalPodAutoscalers, Pods } from '../../api/resource-type.js';
import type { KObject } from '../../api/meta.js';
import { setupCloneSetController } from '../../controllers/cloneset/index.js';
import { setupPodReadinessController } from '../../controllers/podreadiness/index.js';
import { eventually, startWorkloadEnv, type WorkloadEnv } from '../../testing/workload-env.js';
import type { Pod } from '../../api/core/index.js';

type Obj = Record<string, any>;
const ns = 'default';
const usage = 'metrics.kruise.io/usage';

describe('HorizontalPodAutoscaler on a CloneSet', () => {
  let w: WorkloadEnv;
  before(async () => {
    w = await startWorkloadEnv({ nodes: 2, hpa: { syncPeriodMs: 200 }, controllers: (m) => { setupCloneSetController(m); setupPodReadinessController(m); } });
  });
  after(() => w.stop());

  const ok = async (...args: string[]) => {
    const r = await w.env.kubectl(args);
    assert.equal(r.code, 0, `kubectl ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const hpa = () => w.client.get<KObject & Obj>(HorizontalPodAutoscalers, ns, 'web');
  const condition = (h: Obj, type: string) => (h.status?.conditions as Obj[] | undefined)?.find((c) => c.type === type);
  const replicas = async () => ((await w.client.get<Obj & KObject>(CloneSets, ns, 'web')).spec.replicas as number);
  const readyPods = async () => (await w.client.list<Pod>(Pods, { namespace: ns, labelSelector: 'app=web' })).items
    .filter((p) => !p.metadata.deletionTimestamp && p.status?.conditions?.some((c) => c.type === 'Ready' && c.status === 'True'));
  const setUsage = async (value: string) => {
    for (const p of await readyPods()) await w.client.patch(Pods, ns, p.metadata.name!, 'merge', { metadata: { annotations: { [usage]: value } } });
  };

  test('kubectl autoscale and top, then scale out and back in', async () => {
    await w.client.create(CloneSets, {
      apiVersion: 'apps.kruise.io/v1alpha1', kind: 'CloneSet', metadata: { name: 'web', namespace: ns },
      spec: {
        replicas: 1, selector: { matchLabels: { app: 'web' } },
        template: {
          metadata: { labels: { app: 'web' }, annotations: { [usage]: 'cpu=50m,memory=20Mi' } },
          spec: { containers: [{ name: 'app', image: 'nginx:1.25-alpine', resources: { requests: { cpu: '100m', memory: '64Mi' } } }] },
        },
      },
    });
    await eventually('one ready pod', async () => (await readyPods()).length === 1 || undefined);
    assert.match(await ok('autoscale', 'clone/web', '--cpu-percent=50', '--min=1', '--max=5'), /horizontalpodautoscaler.autoscaling\/web autoscaled/);
    const top = await ok('top', 'pods', '-l', 'app=web', '--no-headers');
    assert.match(top, /^web-\S+\s+50m\s+20Mi\s*$/);
    const at50 = await eventually('HPA sees 50% of 50%', async () => {
      const h = await hpa();
      return h.status?.currentMetrics?.[0]?.resource?.current?.averageUtilization === 50 ? h : undefined;
    });
    assert.deepEqual(at50.status.currentMetrics, [{ type: 'Resource', resource: { name: 'cpu', current: { averageUtilization: 50, averageValue: '50m' } } }]);
    assert.deepEqual((at50.status.conditions as Obj[]).map((c) => [c.type, c.status, c.reason]), [
      ['AbleToScale', 'True', 'ReadyForNewScale'], ['ScalingActive', 'True', 'ValidMetricFound'], ['ScalingLimited', 'False', 'DesiredWithinRange'],
    ]);
    const row = (await ok('get', 'hpa', 'web', '--no-headers')).trim().split(/\s+/);
    assert.deepEqual(row.slice(0, 7), ['web', 'CloneSet/web', 'cpu:', '50%/50%', '1', '5', '1']);

    // a window long enough to be seen, short enough for a test
    await w.client.patch(HorizontalPodAutoscalers, ns, 'web', 'merge', { spec: { behavior: { scaleDown: { stabilizationWindowSeconds: 3 } } } });
    await setUsage('cpu=200m');
    const limited = await eventually('scaled out to maxReplicas', async () => {
      const h = await hpa();
      return (await replicas()) === 5 && condition(h, 'ScalingLimited')?.reason === 'TooManyReplicas' ? h : undefined;
    }, 30_000);
    assert.equal(condition(limited, 'ScalingLimited')!.status, 'True');

    await eventually('five ready pods', async () => (await readyPods()).length === 5 || undefined, 30_000);
    await setUsage('cpu=10m');
    const held = await eventually('scale-down held by the window', async () => {
      const h = await hpa();
      return condition(h, 'AbleToScale')?.reason === 'ScaleDownStabilized' ? h : undefined;
    }, 30_000);
    assert.equal(held.status.desiredReplicas, 5, 'the highest recent recommendation is kept');
    assert.equal(await replicas(), 5);
    await eventually('scaled in to minReplicas', async () => (await replicas()) === 1 || undefined, 30_000);
    const events = JSON.parse(await ok('get', 'events', '--field-selector', 'involvedObject.kind=HorizontalPodAutoscaler,involvedObject.name=web', '-o', 'json')) as Obj;
    const messages = (events.items as Obj[]).map((e) => `${e.reason}: ${e.message}`);
    assert.ok(messages.includes('SuccessfulRescale: New size: 1; reason: All metrics below target'), messages.join('\n'));
    assert.ok(messages.some((m) => /^SuccessfulRescale: New size: \d; reason: cpu resource utilization \(percentage of request\) above target$/.test(m)), messages.join('\n'));
  });
});
