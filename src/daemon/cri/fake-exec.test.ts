import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fakeExecOutput } from './fake-exec.js';
import type { ContainerConfig } from './types.js';

const config: ContainerConfig = { metadata: { name: 'app', attempt: 0 }, image: { image: 'nginx' }, envs: [{ key: 'X', value: 'v1' }, { key: 'EMPTY', value: '' }] };

test('ExecSync in a simulated container: env and printenv print its environment, anything else succeeds silently', () => {
  assert.deepEqual(fakeExecOutput(config, ['env']), { stdout: 'X=v1\nEMPTY=\n', exitCode: 0 });
  assert.deepEqual(fakeExecOutput(config, ['/usr/bin/printenv']), { stdout: 'X=v1\nEMPTY=\n', exitCode: 0 });
  assert.deepEqual(fakeExecOutput(config, ['printenv', 'X']), { stdout: 'v1\n', exitCode: 0 });
  assert.deepEqual(fakeExecOutput(config, ['printenv', 'NOPE']), { stdout: '', exitCode: 1 });
  assert.deepEqual(fakeExecOutput(config, ['cat', '/etc/hosts']), { stdout: '', exitCode: 0 });
  assert.deepEqual(fakeExecOutput({ ...config, envs: undefined }, ['env']), { stdout: '', exitCode: 0 });
});
