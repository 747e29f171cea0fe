import { mkdir, mkdtemp, readFile, rm, rmdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createCgroupV2, sweepV2Leftovers } from '../../src/isolation/cgroup-v2.js';
import { findMount, type CgroupFs } from '../../src/isolation/cgroup-fs.js';

/**
 * cgroup v2 with cpuset needs a hierarchy offering the controller (GitHub's runners; not this
 * machine, whose cgroup2 mount has none). So the real hierarchy is only probed here, and the
 * sequence of writes is checked against a directory that stands in for cgroupfs, recording
 * every operation as `sudo -n` would perform it.
 */
function recordingFs(log: string[]): CgroupFs {
  // As in cgroupfs, writing a pid to a `cgroup.procs` moves the process: it leaves the group
  // it was in (else removing that group would kill it, this test's own process included).
  const members = new Map<string, Set<string>>();
  return {
    viaSudo: true,
    mkdir: async (dir) => {
      log.push(`mkdir ${dir}`);
      await mkdir(dir);
    },
    write: async (file, value) => {
      log.push(`write ${file} ${value}`);
      if (path.basename(file) !== 'cgroup.procs') return writeFile(file, value);
      for (const [other, pids] of members) {
        if (other !== file && pids.delete(value)) {
          await writeFile(other, [...pids].join('\n')).catch(() => undefined);
        }
      }
      const pids = members.get(file) ?? new Set<string>();
      members.set(file, pids.add(value));
      await writeFile(file, [...pids].join('\n'));
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

  it('enables the controllers, creates a slot per CPU set with the largest CPU weight, attaches through cgroup.procs and cleans up', async () => {
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
      cpuWeight: 'cpu.weight=10000',
    });
    expect(isolation.report.warnings).toContain('cgroups were created through sudo -n');
    await isolation.place(1).attach(4242);
    expect(await readFile(path.join(dir, 'slot-1', 'cgroup.procs'), 'utf8')).toBe('4242');
    expect(log.slice(0, 14)).toEqual([
      `write ${root}/cgroup.subtree_control +cpuset`,
      `write ${root}/cgroup.subtree_control +cpu`,
      `mkdir ${dir}`,
      `write ${dir}/cpuset.cpus 1,2,3`,
      `write ${dir}/cpu.weight 10000`,
      `write ${dir}/cgroup.subtree_control +cpuset`,
      `write ${dir}/cgroup.subtree_control +cpu`,
      `mkdir ${dir}/slot-0`,
      `write ${dir}/slot-0/cpuset.cpus 1`,
      `write ${dir}/slot-0/cpu.weight 10000`,
      `mkdir ${dir}/slot-1`,
      `write ${dir}/slot-1/cpuset.cpus 2,3`,
      `write ${dir}/slot-1/cpu.weight 10000`,
      `write ${dir}/slot-1/cgroup.procs 4242`,
    ]);
    // The recorded pid does not exist here; clean-up still removes every directory.
    await writeFile(path.join(dir, 'slot-1', 'cgroup.procs'), '');
    await isolation.dispose();
    expect(log.slice(-3)).toEqual([`rmdir ${dir}/slot-1`, `rmdir ${dir}/slot-0`, `rmdir ${dir}`]);
    await expect(rmdir(dir)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('sharing the measured CPUs, the harness joins a child with their weight for the run, then goes home', async () => {
    const log: string[] = [];
    const isolation = await createCgroupV2({
      slots: [[0], [1]],
      harness: null,
      requested: 'auto',
      warnings: [],
      fs: recordingFs(log),
      mount: root,
    });
    const dir = isolation.report.cgroup!;
    expect(isolation.report.harnessWeighted).toBe(true);
    expect(log).toEqual(
      expect.arrayContaining([
        `mkdir ${dir}/harness`,
        `write ${dir}/harness/cpuset.cpus 0,1`,
        `write ${dir}/harness/cpu.weight 10000`,
        `write ${dir}/harness/cgroup.procs ${process.pid}`,
      ]),
    );
    // Its own group, from /proc/self/cgroup (`0::/…`), is where it goes back to.
    const own = (await readFile('/proc/self/cgroup', 'utf8')).match(/^0::(.*)$/m)?.[1] ?? '/';
    const home = path.join(root, own, 'cgroup.procs');
    await mkdir(path.dirname(home), { recursive: true });
    await isolation.dispose();
    const back = log.indexOf(`write ${home} ${process.pid}`);
    expect(back).toBeGreaterThan(-1);
    // Back home before the groups are removed (a cgroup with a process cannot be removed).
    expect(back).toBeLessThan(log.indexOf(`rmdir ${dir}/harness`));
  });

  it('keeps the CPU sets without a cpu controller, or when asked, and says why', async () => {
    await writeFile(path.join(root, 'cgroup.controllers'), 'cpuset io memory pids\n');
    const options = { slots: [[1]], harness: null, requested: 'cpuset' as const, mount: root };
    const log: string[] = [];
    const noCpu = await createCgroupV2({ ...options, warnings: [], fs: recordingFs(log) });
    expect(noCpu.report.cpuWeight).toBeUndefined();
    expect(noCpu.report.warnings).toContain(
      `the CPU weight could not be raised: the cgroup2 hierarchy at ${root} offers no cpu controller`,
    );
    expect(log.filter((line) => /cpu\.weight|\+cpu$/.test(line))).toEqual([]);
    await noCpu.dispose();

    await writeFile(path.join(root, 'cgroup.controllers'), 'cpuset cpu io memory pids\n');
    const asked: string[] = [];
    const plain = await createCgroupV2({
      ...options,
      cpuWeight: false,
      warnings: [],
      fs: recordingFs(asked),
    });
    expect(plain.report.cpuWeight).toBeUndefined();
    expect(plain.report.warnings.join('\n')).not.toMatch(/weight/);
    expect(asked.filter((line) => /cpu\.weight|\+cpu$/.test(line))).toEqual([]);
    await plain.dispose();
  });

  describe('exclusive CPUs (cpuset.cpus.partition)', () => {
    /**
     * The stand-in as a kernel offering partitions: every new group has the file, reading
     * `member`; `answer` decides what a write of `root` leaves there (or throws, as EINVAL).
     */
    function partitionFs(log: string[], answer: (value: string) => string): CgroupFs {
      const base = recordingFs(log);
      return {
        ...base,
        mkdir: async (dir) => {
          await base.mkdir(dir);
          await writeFile(path.join(dir, 'cpuset.cpus.partition'), 'member\n');
        },
        write: async (file, value) => {
          if (path.basename(file) !== 'cpuset.cpus.partition') return base.write(file, value);
          log.push(`write ${file} ${value}`);
          await writeFile(file, `${answer(value)}\n`);
        },
      };
    }
    const options = {
      slots: [[1], [3]],
      harness: [0, 2],
      requested: 'auto' as const,
      warnings: [],
    };

    it('makes the measured CPUs a partition root for the run, and gives them back before removing it', async () => {
      const log: string[] = [];
      const fs = partitionFs(log, (value) => value);
      const isolation = await createCgroupV2({ ...options, fs, mount: root });
      const dir = isolation.report.cgroup!;
      const file = path.join(dir, 'cpuset.cpus.partition');
      expect(isolation.report.partition).toBe('root');
      expect(isolation.report.warnings.join()).not.toMatch(/exclusive/);
      expect(await readFile(file, 'utf8')).toBe('root\n');
      // After the group's CPUs and controllers, before its slots.
      expect(log.indexOf(`write ${file} root`)).toBeGreaterThan(
        log.indexOf(`write ${dir}/cgroup.subtree_control +cpuset`),
      );
      expect(log.indexOf(`write ${file} root`)).toBeLessThan(log.indexOf(`mkdir ${dir}/slot-0`));
      await isolation.dispose();
      const restore = log.indexOf(`write ${file} member`);
      expect(restore).toBeGreaterThan(-1);
      expect(restore).toBeLessThan(log.indexOf(`rmdir ${dir}/slot-1`));
      expect(log.at(-1)).toBe(`rmdir ${dir}`);
    });

    it('keeps the weight and says why when the kernel reports the partition invalid', async () => {
      const log: string[] = [];
      const fs = partitionFs(log, (value) =>
        value === 'root' ? 'root invalid (Cpu list in cpuset.cpus not exclusive)' : value,
      );
      const isolation = await createCgroupV2({ ...options, fs, mount: root });
      const file = path.join(isolation.report.cgroup!, 'cpuset.cpus.partition');
      expect(isolation.report.partition).toBeUndefined();
      expect(isolation.report.cpuWeight).toBe('cpu.weight=10000');
      expect(isolation.report.warnings).toContain(
        'the measured CPUs are not exclusive (the kernel made cpuset.cpus.partition "root invalid (Cpu list in cpuset.cpus not exclusive)"): other processes may still run on them, at a lower CPU weight',
      );
      // Put back at once.
      expect(await readFile(file, 'utf8')).toBe('member\n');
      await isolation.dispose();
    });

    it('keeps the weight when the write is refused, or the kernel has no such file', async () => {
      const refused = partitionFs([], () => {
        throw new Error('sudo -n tee cpuset.cpus.partition: tee: write error: Invalid argument');
      });
      const one = await createCgroupV2({ ...options, fs: refused, mount: root });
      expect(one.report.partition).toBeUndefined();
      expect(one.report.warnings.join('\n')).toMatch(
        /not exclusive \(the kernel refused cpuset.cpus.partition = root: .*Invalid argument\)/,
      );
      await one.dispose();
      const old = await createCgroupV2({ ...options, fs: recordingFs([]), mount: root });
      expect(old.report.warnings.join('\n')).toMatch(/the kernel offers no cpuset.cpus.partition/);
      await old.dispose();
    });

    it('does not try when the harness shares the measured CPUs (nothing would be left for the rest)', async () => {
      const log: string[] = [];
      const fs = partitionFs(log, (value) => value);
      const isolation = await createCgroupV2({ ...options, harness: null, fs, mount: root });
      expect(log.filter((line) => line.includes('partition'))).toEqual([]);
      expect(isolation.report.warnings.join()).not.toMatch(/exclusive/);
      await isolation.dispose();
    });

    it("the next run gives a killed run's partition back and removes its group", async () => {
      const stale = path.join(root, 'duetkit-99999999-test');
      await mkdir(path.join(stale, 'slot-0'), { recursive: true });
      await writeFile(path.join(stale, 'cpuset.cpus.partition'), 'root\n');
      const log: string[] = [];
      const isolation = await createCgroupV2({
        ...options,
        fs: partitionFs(log, (value) => value),
        mount: root,
      });
      expect(log.slice(0, 3)).toEqual([
        `write ${stale}/cpuset.cpus.partition member`,
        `rmdir ${stale}/slot-0`,
        `rmdir ${stale}`,
      ]);
      await isolation.dispose();
    });

    it("sweeps a killed run's partition before anything reads the CPUs (sweepV2Leftovers), and only reads when nothing is stale", async () => {
      const log: string[] = [];
      expect(await sweepV2Leftovers({ fs: partitionFs(log, (v) => v), mount: root })).toEqual([]);
      expect(log).toEqual([]);
      const live = path.join(root, `duetkit-${process.pid}-live`);
      const stale = path.join(root, 'duetkit-99999999-test');
      await mkdir(live);
      await mkdir(path.join(stale, 'slot-1'), { recursive: true });
      await writeFile(path.join(stale, 'cpuset.cpus.partition'), 'root\n');
      const swept = await sweepV2Leftovers({ fs: partitionFs(log, (v) => v), mount: root });
      expect(swept).toEqual([stale]);
      expect(log).toEqual([
        `write ${stale}/cpuset.cpus.partition member`,
        `rmdir ${stale}/slot-1`,
        `rmdir ${stale}`,
      ]);
      await rmdir(live);
    });
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
