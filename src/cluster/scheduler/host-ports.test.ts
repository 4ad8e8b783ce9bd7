import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HostPortSet, podHostPorts, type HostPort } from './host-ports.js';

const hp = (port: number, ip = '0.0.0.0', protocol = 'TCP'): HostPort => ({ ip, protocol, port });

describe('host ports', () => {
  test('podHostPorts normalises protocol and host IP and skips container-only ports', () => {
    const ports = podHostPorts({ containers: [{ name: 'a', ports: [{ containerPort: 80 }, { containerPort: 80, hostPort: 8080 }, { containerPort: 53, hostPort: 53, protocol: 'UDP', hostIP: '10.0.0.1' }] }] });
    assert.deepEqual(ports, [hp(8080), hp(53, '10.0.0.1', 'UDP')]);
  });

  const cases: [string, HostPort[], HostPort, boolean][] = [
    ['free port', [hp(80)], hp(81), false],
    ['same port, both wildcard', [hp(80)], hp(80), true],
    ['different protocol', [hp(80)], hp(80, '0.0.0.0', 'UDP'), false],
    ['used on wildcard, wanted on an IP', [hp(80)], hp(80, '10.0.0.1'), true],
    ['used on an IP, wanted on wildcard', [hp(80, '10.0.0.1')], hp(80), true],
    ['different specific IPs', [hp(80, '10.0.0.1')], hp(80, '10.0.0.2'), false],
    ['same specific IP', [hp(80, '10.0.0.1')], hp(80, '10.0.0.1'), true],
  ];
  for (const [name, used, want, clash] of cases) {
    test(name, () => {
      const set = new HostPortSet();
      set.add(used);
      assert.equal(set.conflicts(want), clash);
    });
  }

  test('removing one of two holders keeps the port used', () => {
    const set = new HostPortSet();
    set.add([hp(80)]);
    set.add([hp(80)]);
    set.add([hp(80)], -1);
    assert.equal(set.conflicts(hp(80)), true);
    set.add([hp(80)], -1);
    assert.equal(set.conflicts(hp(80)), false);
    assert.equal(set.size, 0);
  });
});
