import { groupName, ownerEnded, pidNamespace } from '../../src/isolation/cgroup-fs.js';

// The sweep removes groups of runs that ended. A run in a container (a kind node, a pod)
// shares the host's cgroup tree but not its pids: CI saw a cluster test's in-pod run take a
// host run's live group for dead and remove it between two iterations (spawn ENOENT).
describe('which stale groups the sweep may remove', () => {
  const own = pidNamespace();
  const gone = 99999999; // beyond pid_max: a run killed with SIGKILL

  it("names this run's group with its pid and its pid namespace", () => {
    expect(own).toMatch(/^\d+$/);
    expect(groupName()).toMatch(new RegExp(`^duetkit-${process.pid}-ns${own}-[0-9a-z]+$`));
    expect(ownerEnded(groupName())).toBe(false);
  });

  it('removes a group whose owner is gone from this namespace, or of an older name', () => {
    expect(ownerEnded(`duetkit-${gone}-ns${own}-abc`)).toBe(true);
    expect(ownerEnded(`duetkit-${gone}-abc`)).toBe(true);
    expect(ownerEnded(`duetkit-${gone}-ns0-abc`)).toBe(true); // the namespace was unknown
  });

  it('leaves a live owner, a group of another pid namespace, and what is not duetkit’s', () => {
    expect(ownerEnded(`duetkit-${process.pid}-ns${own}-abc`)).toBe(false);
    expect(ownerEnded(`duetkit-${gone}-ns1-abc`, own)).toBe(false);
    expect(ownerEnded(`duetkit-${gone}-ns${own}-abc`, '12345')).toBe(false);
    expect(ownerEnded('user.slice')).toBe(false);
  });
});
