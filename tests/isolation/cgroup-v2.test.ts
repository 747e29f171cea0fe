import { mkdir, mkdtemp, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createCgroupV2 } from '../../src/isolation/cgroup-v2.js';
import { findMount, type CgroupFs } from '../../src/isolation/cgroup-fs.js';

/**
 * cgroup v2 with cpuset needs a hierarchy offering the controller (GitHub's runners; not this
 * machine, whose cgroup2 mount has none). So the real hierarchy is only probed here, and the
 * sequence of writes is checked against a directory that stands in for cgroupfs, recording
 * every operation as `sudo -n` would perform it.
 */
function recordingFs(log: string[]): CgroupFs {
  return {
    viaSudo: true,
    mkdir: async (dir) => {
      log.push(`mkdir ${dir}`);
      await mkdir(dir);
    },
    write: async (file, value) => {
      log.push(`write ${file} ${value}`);
      await writeFile(file, value);
    },
    read: (file) => readFile(file, 'utf8'),
    // Real cgroup directories vanish with their interface files; a plain one must be emptied.
    rmdir: async (dir) => {
      log.push(`rmdir ${dir}`);
      await rm(dir, { recursive: true });
    },
  };
}

describe('cgroup v2 cpuset', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'duetkit-cgroup2-'));
    await writeFile(path.join(root, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
    await writeFile(path.join(root, 'cgroup.subtree_control'), 'memory pids\n');
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('enables the controller, creates a slot per CPU set, attaches through cgroup.procs and cleans up', async () => {
    const log: string[] = [];
    const isolation = await createCgroupV2({
      slots: [[1], [2, 3]],
      harness: [0],
      requested: 'auto',
      warnings: [],
      fs: recordingFs(log),
      mount: root,
    });
    const dir = isolation.report.cgroup!;
    expect(isolation.report).toMatchObject({
      kind: 'cgroup-v2',
      slots: ['1', '2-3'],
      harnessCpus: '0',
    });
    expect(isolation.report.warnings).toContain('cgroups were created through sudo -n');
    await isolation.place(1).attach(4242);
    expect(await readFile(path.join(dir, 'slot-1', 'cgroup.procs'), 'utf8')).toBe('4242');
    expect(log.slice(0, 8)).toEqual([
      `write ${root}/cgroup.subtree_control +cpuset`,
      `mkdir ${dir}`,
      `write ${dir}/cpuset.cpus 1,2,3`,
      `write ${dir}/cgroup.subtree_control +cpuset`,
      `mkdir ${dir}/slot-0`,
      `write ${dir}/slot-0/cpuset.cpus 1`,
      `mkdir ${dir}/slot-1`,
      `write ${dir}/slot-1/cpuset.cpus 2,3`,
    ]);
    // The recorded pid does not exist here; clean-up still removes every directory.
    await writeFile(path.join(dir, 'slot-1', 'cgroup.procs'), '');
    await isolation.dispose();
    expect(log.slice(-3)).toEqual([`rmdir ${dir}/slot-1`, `rmdir ${dir}/slot-0`, `rmdir ${dir}`]);
    await expect(rmdir(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses a hierarchy without the cpuset controller', async () => {
    await writeFile(path.join(root, 'cgroup.controllers'), 'cpu io memory pids\n');
    await expect(
      createCgroupV2({
        slots: [[0]],
        harness: null,
        requested: 'cpuset',
        warnings: [],
        fs: recordingFs([]),
        mount: root,
      }),
    ).rejects.toThrow(/offers no cpuset controller/);
  });

  it('probes the real hierarchy and explains why it cannot be used here', async () => {
    const mount = await findMount('cgroup2');
    const controllers =
      mount === null ? '' : await readFile(path.join(mount, 'cgroup.controllers'), 'utf8');
    const attempt = createCgroupV2({
      slots: [[0]],
      harness: null,
      requested: 'cpuset',
      warnings: [],
    });
    if (mount === null || !controllers.includes('cpuset')) {
      await expect(attempt).rejects.toThrow(
        /no cgroup2|no cpuset controller|root or passwordless sudo/,
      );
    } else {
      const isolation = await attempt;
      expect(isolation.report.kind).toBe('cgroup-v2');
      await isolation.dispose();
    }
  });
});
