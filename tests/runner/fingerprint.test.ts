import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describeFingerprint } from '../../src/report/fingerprint-text.js';
import { buildFingerprint, type FingerprintProbe } from '../../src/runner/fingerprint.js';
import { cgroupVersion, probeFingerprint } from '../../src/runner/fingerprint-probe.js';
import { SHAPES, writeSysfs } from '../isolation/sysfs.js';

const fixture = (name: string): Promise<string> =>
  readFile(path.join('tests/fixtures/cpuinfo', name), 'utf8');

const githubProbe = async (): Promise<FingerprintProbe> => ({
  cpuinfo: await fixture('github-epyc-7763.txt'),
  kernel: '6.11.0-1018-azure',
  arch: 'x64',
  vcpus: 4,
  layout: '1 package × 2 cores × 2 threads',
  cgroup: 'v2',
  hypervisorType: null,
  dmiVendor: 'Microsoft Corporation\n',
  dmiProduct: 'Virtual Machine\n',
  env: { ImageOS: 'ubuntu24', ImageVersion: '20251112.1', RUNNER_OS: 'Linux', RUNNER_ARCH: 'X64' },
});

describe('buildFingerprint', () => {
  it("GitHub's x64 runner: model, microcode, layout, hypervisor and image", async () => {
    const f = buildFingerprint(await githubProbe(), 'cgroup-v2');
    expect(f).toMatchObject({
      cpuModel: 'AMD EPYC 7763 64-Core Processor',
      microcode: '0xffffffff',
      kernel: '6.11.0-1018-azure',
      vcpus: 4,
      layout: '1 package × 2 cores × 2 threads',
      cgroup: 'v2',
      isolation: 'cgroup-v2',
      hypervisor: {
        present: true,
        type: null,
        vendor: 'Microsoft Corporation',
        product: 'Virtual Machine',
      },
      image: { os: 'ubuntu24', version: '20251112.1', runnerOs: 'Linux', runnerArch: 'X64' },
    });
    expect(f.id).toMatch(/^[0-9a-f]{12}$/);
    expect(describeFingerprint(f)).toBe(
      `AMD EPYC 7763 64-Core Processor, microcode 0xffffffff, 4 vCPUs (1 package × 2 cores × 2 threads), x64 Linux 6.11.0-1018-azure, cgroup v2, virtual (Microsoft Corporation, Virtual Machine), image ubuntu24 20251112.1, fingerprint ${f.id}`,
    );
  });

  it('the id changes with the machine, not with the isolation', async () => {
    const probe = await githubProbe();
    const a = buildFingerprint(probe, 'cgroup-v2');
    expect(buildFingerprint(probe, 'taskset').id).toBe(a.id);
    const other = probe.cpuinfo!.replaceAll(
      'AMD EPYC 7763 64-Core Processor',
      'Intel(R) Xeon(R) Platinum 8370C CPU @ 2.80GHz',
    );
    expect(buildFingerprint({ ...probe, cpuinfo: other }, 'cgroup-v2').id).not.toBe(a.id);
    expect(buildFingerprint({ ...probe, kernel: '6.8.0-1021-azure' }, 'cgroup-v2').id).not.toBe(
      a.id,
    );
  });

  it('an arm64 runner: the implementer and part stand for the model; no microcode', async () => {
    const f = buildFingerprint(
      {
        ...(await githubProbe()),
        cpuinfo: await fixture('arm64-neoverse-n1.txt'),
        arch: 'arm64',
        env: {},
      },
      null,
    );
    expect(f).toMatchObject({
      cpuModel: 'arm 0x41 0xd0c',
      microcode: null,
      hypervisor: { present: false },
      image: { os: null, version: null, runnerOs: null, runnerArch: null },
      isolation: null,
    });
  });

  it('unreadable /proc/cpuinfo: unknowns, not guesses', async () => {
    const f = buildFingerprint({ ...(await githubProbe()), cpuinfo: null }, null);
    expect(f).toMatchObject({ cpuModel: null, microcode: null, hypervisor: { present: null } });
    expect(describeFingerprint(f)).toMatch(/^unknown CPU, 4 vCPUs/);
  });
});

describe('probeFingerprint', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'duetkit-probe-'));
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  it('reads /proc and /sys under injected roots', async () => {
    const proc = path.join(root, 'proc');
    const sys = path.join(root, 'sys');
    await mkdir(path.join(proc, 'self'), { recursive: true });
    await writeFile(path.join(proc, 'cpuinfo'), await fixture('github-epyc-7763.txt'));
    await writeFile(path.join(proc, 'self/status'), 'Name:\tnode\nCpus_allowed_list:\t0-3\n');
    await writeFile(
      path.join(proc, 'self/mountinfo'),
      '35 24 0:30 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n',
    );
    await writeSysfs(sys, SHAPES.github4Adjacent);
    await mkdir(path.join(sys, 'class/dmi/id'), { recursive: true });
    await writeFile(path.join(sys, 'class/dmi/id/sys_vendor'), 'Microsoft Corporation\n');
    const probe = await probeFingerprint({ ImageOS: 'ubuntu24', PATH: '/bin' }, { proc, sys });
    expect(probe).toMatchObject({
      vcpus: 4,
      layout: '1 package × 2 cores × 2 threads',
      cgroup: 'v2',
      hypervisorType: null,
      dmiVendor: 'Microsoft Corporation\n',
      dmiProduct: null,
      env: { ImageOS: 'ubuntu24' },
    });
    expect(probe.env).not.toHaveProperty('PATH', '/bin');
  });

  it('names cgroup v1 where v1 holds the CPU controllers (this machine), even beside an empty cgroup2', async () => {
    const file = path.join(root, 'mountinfo');
    await writeFile(
      file,
      [
        '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
        '44 31 0:41 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset',
        '',
      ].join('\n'),
    );
    expect(await cgroupVersion(file)).toBe('v1');
    await writeFile(file, '');
    expect(await cgroupVersion(file)).toBe('none');
  });
});
