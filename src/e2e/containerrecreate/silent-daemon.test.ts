/** CRR end to end, scenario 5: no daemon answers, and after a minute the manager gives the request up. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setupContainerRecreateRequestController } from '../../controllers/containerrecreaterequest/index.js';
import { FakeClock } from '../../machinery/clock.js';
import { Manager } from '../../runtime/manager.js';
import { eventually, holds } from '../../testing/workload-env.js';
import { createCRR, crr, getCRR, runningPod, startCRREnv } from './fixtures.js';

test('scenario 5: without a daemon the request is completed 60 s after creation with "daemon has not responded for a long time"', async () => {
  const w = await startCRREnv({ daemons: false, controllers: () => undefined });
  // the manager's clock is ours to move; the API server stamps creation on the real one
  const clock = new FakeClock(Date.now());
  const mgr = new Manager({ client: w.client, clock, health: false, leaderElection: false });
  setupContainerRecreateRequestController(mgr);
  await mgr.start();
  try {
    await runningPod(w, 'p-silent');
    const created = await createCRR(w, crr('crr-silent', 'p-silent'));
    clock.advance(Date.parse(created.metadata.creationTimestamp!) + 30_000 - clock.now());
    await holds('still waiting half way', async () => ((await getCRR(w, 'crr-silent')).status?.phase ? 'completed early' : undefined), 300);
    clock.advance(31_000);
    const done = await eventually('completed', async () => {
      const current = await getCRR(w, 'crr-silent');
      return current.status?.phase === 'Completed' ? current : undefined;
    });
    assert.equal(done.status!.message, 'daemon has not responded for a long time');
    assert.equal(done.status!.completionTime, new Date(clock.now()).toISOString().replace(/\.\d+Z$/, 'Z'));
  } finally {
    await mgr.stop();
    await w.stop();
  }
});
