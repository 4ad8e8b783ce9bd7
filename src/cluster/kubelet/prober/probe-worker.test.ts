import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { defaultOutcome, nextFailureFrom, parseOutcomeScript, succeedsAt } from '../../../machinery/outcome-script.js';
import { failureOutput, probeSettings, type ProbeType } from './probe-spec.js';
import { ProbeWorker } from './probe-worker.js';
import type { Probe } from '../../../api/core/index.js';

const T0 = 1_000_000;

function worker(type: ProbeType, probe: Probe, script = 'succeed', firstAt = T0 + (probe.initialDelaySeconds ?? 0) * 1000) {
  return new ProbeWorker({ type, settings: probeSettings(probe), script: parseOutcomeScript(script), containerStartedAt: T0, firstAt });
}

/** Advances to `at` (ms after T0); returns when the probes run on the way failed (ms after T0). */
function run(w: ProbeWorker, at: number): number[] {
  const failures: number[] = [];
  w.advance(T0 + at, (t) => failures.push(t - T0));
  return failures;
}

describe('outcome scripts', () => {
  test('grammar', () => {
    assert.deepEqual(parseOutcomeScript(''), defaultOutcome);
    assert.deepEqual(parseOutcomeScript('fail-after=1m30s'), { shape: { kind: 'fail-after', afterMs: 90_000 }, latencyMs: 0 });
    assert.deepEqual(parseOutcomeScript(' flap=10/5s , latency=500ms'), { shape: { kind: 'flap', upMs: 10_000, downMs: 5000 }, latencyMs: 500 });
    assert.throws(() => parseOutcomeScript('explode'), /unknown clause "explode"/);
    assert.throws(() => parseOutcomeScript('fail,succeed'), /more than one outcome/);
    assert.throws(() => parseOutcomeScript('flap=10s'), /flap=<up>\/<down>/);
    assert.throws(() => parseOutcomeScript('fail-after=soon'), /invalid duration/);
  });

  test('outcomes over time and the next failure', () => {
    const flap = parseOutcomeScript('flap=30s/20s').shape;
    assert.deepEqual([0, 29_999, 30_000, 49_999, 50_000].map((t) => succeedsAt(flap, t)), [true, true, false, false, true]);
    assert.deepEqual([nextFailureFrom(flap, 0), nextFailureFrom(flap, 35_000), nextFailureFrom(flap, 51_000)], [30_000, 35_000, 80_000]);
    assert.equal(nextFailureFrom(parseOutcomeScript('succeed-after=5s').shape, 6000), Infinity);
  });
});

describe('ProbeWorker', () => {
  test('liveness: failureThreshold failures in a row, then it holds until a new container', () => {
    const w = worker('liveness', { httpGet: { port: 80 } }, 'fail-after=25s');
    assert.deepEqual(run(w, 49_000), [30_000, 40_000]);
    assert.equal(w.result, 'success');
    assert.deepEqual(run(w, 200_000), [50_000]);
    assert.deepEqual([w.result, w.changedAt - T0, w.nextDueAt()], ['failure', 50_000, Infinity]);
  });

  test('readiness starts failed, needs successThreshold successes, and a settled success costs no wake-ups', () => {
    const w = worker('readiness', { httpGet: { port: 80 }, initialDelaySeconds: 5, periodSeconds: 2, successThreshold: 3 });
    run(w, 8000);
    assert.equal(w.result, 'failure');
    run(w, 9000);
    assert.deepEqual([w.result, w.changedAt - T0], ['success', 9000]);
    assert.equal(w.nextDueAt(), Infinity, 'nothing scripted can change it');
  });

  test('a scripted failure ahead is the next wake-up; a changed script takes over at the next tick', () => {
    const w = worker('readiness', { exec: { command: ['true'] } }, 'fail-after=95s');
    run(w, 1000);
    assert.equal(w.nextDueAt() - T0, 100_000);
    w.rescript(parseOutcomeScript('fail'), T0 + 41_000);
    assert.equal(w.nextDueAt() - T0, 50_000);
    assert.deepEqual(run(w, 70_000), [50_000, 60_000, 70_000]);
    assert.equal(w.result, 'failure');
  });

  test('startup: ends at its first success; a slow answer counts as a timeout', () => {
    const w = worker('startup', { tcpSocket: { port: 80 }, periodSeconds: 1, failureThreshold: 30 }, 'succeed-after=3s');
    assert.equal(w.result, 'unknown');
    run(w, 10_000);
    assert.deepEqual([w.result, w.changedAt - T0, w.nextDueAt()], ['success', 3000, Infinity]);
    const slow = worker('readiness', { tcpSocket: { port: 80 }, timeoutSeconds: 1 }, 'latency=4s');
    assert.deepEqual(run(slow, 25_000), [1000, 11_000, 21_000], 'answers come timeoutSeconds after each probe');
  });

  test('failure output per handler', () => {
    const c = { name: 'app', ports: [{ name: 'web', containerPort: 8080 }] };
    assert.equal(failureOutput({ httpGet: { port: 'web', path: '/ready' } }, c, '10.244.0.9', true),
      'Get "http://10.244.0.9:8080/ready": context deadline exceeded (Client.Timeout exceeded while awaiting headers)');
    assert.equal(failureOutput({ tcpSocket: { port: 5432 } }, c, '10.244.0.9', true), 'dial tcp 10.244.0.9:5432: i/o timeout');
    assert.equal(failureOutput({ grpc: { port: 9090 } }, c, '10.244.0.9', false), 'service unhealthy (responded with "NOT_SERVING")');
    assert.equal(failureOutput({ exec: { command: ['cat', '/tmp/healthy'] } }, c, '', true), 'command "cat /tmp/healthy" timed out');
  });
});
