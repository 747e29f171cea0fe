import { main } from '../../src/cli/main.js';
import type { DoctorProbe } from '../../src/doctor/probe.js';
import { fakeContext } from '../helpers/cli.js';

/** The real command on this machine: cgroup v1 (no systemd), root, 2 CPUs without SMT. */
describe('duetkit doctor on this machine', () => {
  it('names cgroup v1, the isolation a duet gets, and a CPU plan (text and --json)', async () => {
    const ctx = fakeContext();
    expect(await main(['doctor'], ctx)).toBe(0);
    expect(ctx.out).toMatch(/^✓ cgroup: cgroup v1: cpuset at \/sys\/fs\/cgroup\/cpuset/m);
    expect(ctx.out).toMatch(
      /isolation: a duet here runs with isolation cgroup-v1: CPUs \d+ \| \d+/,
    );
    expect(ctx.out).toMatch(/cpus: \d+ CPUs .*; a duet's CPU plan: harness .*, base \d+, head \d+/);

    const json = fakeContext();
    expect(await main(['doctor', '--json'], json)).toBe(0);
    const { probe } = JSON.parse(json.out) as { probe: DoctorProbe };
    expect(probe.cgroup.version).toBe('v1');
    expect(probe.fingerprint.cgroup).toBe('v1');
    expect(probe.plans.duet).toMatchObject({
      basis: 'topology',
      slots: [expect.any(String), expect.any(String)],
    });
    expect(probe.isolation).toMatchObject({ kind: 'cgroup-v1' });
  });
});
