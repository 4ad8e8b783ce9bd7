/** A hand-written NodeImage: the webhook insists on a TTL; the daemon pulls it and the controller drops it after the TTL. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NodeImages } from '../../api/kruise/resource-types.js';
import { StatusError } from '../../machinery/errors.js';
import { eventually } from '../../testing/workload-env.js';
import { getNodeImage, nodeNames, startImageEnv } from './fixtures.js';

test('hand-written NodeImage tag: refused without ttlSecondsAfterFinished; with it pulled, then removed from spec and status after the TTL', async () => {
  const w = await startImageEnv();
  try {
    const [n1] = nodeNames(w);
    const ni = await getNodeImage(w, n1!);
    const withTag = (pullPolicy: Record<string, number>) => ({ ...ni, spec: { images: { redis: { tags: [{ tag: '7.2', pullPolicy }] } } } });
    await assert.rejects(w.client.update(NodeImages, withTag({ timeoutSeconds: 60 })),
      (e: unknown) => e instanceof StatusError && e.message.includes('pullPolicy.ttlSecondsAfterFinished for redis/7.2 must set'));
    await w.client.update(NodeImages, withTag({ ttlSecondsAfterFinished: 2 }));
    const pulled = await eventually('pulled', async () => { const n = await getNodeImage(w, n1!); return n.status?.imageStatuses?.redis?.tags[0]?.phase === 'Succeeded' && n; });
    assert.equal(pulled.status!.succeeded, 1);
    assert.equal(w.nodes().runtime(n1!)!.pullCount(), 1);
    await eventually('tag dropped after the TTL', async () => {
      const n = await getNodeImage(w, n1!);
      return !n.spec?.images?.redis && !n.status?.imageStatuses?.redis && n.status?.desired === 0;
    }, 20_000);
  } finally {
    await w.stop();
  }
});
