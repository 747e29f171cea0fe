import { assessDoctor } from '../../src/doctor/assess.js';
import type { DoctorProbe } from '../../src/doctor/probe.js';
import { renderDoctorText } from '../../src/doctor/render.js';

const fingerprint: DoctorProbe['fingerprint'] = {
  cpuModel: 'AMD EPYC 7763 64-Core Processor',
  microcode: '0xffffffff',
  kernel: '6.11.0-1018-azure',
  arch: 'x64',
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
  id: '0123456789ab',
};

/** GitHub's 4-vCPU runner as `runner`: cgroup v2, sudo -n, a partition taken. */
const github: DoctorProbe = {
  schemaVersion: 1,
  kernel: '6.11.0-1018-azure',
  root: false,
  sudo: true,
  cgroup: {
    version: 'v2',
    v1: null,
    v2: {
      mount: '/sys/fs/cgroup',
      controllers: ['cpuset', 'cpu', 'io', 'memory', 'hugetlb', 'pids', 'rdma', 'misc'],
      subtreeControl: ['memory', 'pids'],
      partitionFile: null,
    },
  },
  cpus: [0, 1, 2, 3],
  layout: '1 package × 2 cores × 2 threads',
  plans: {
    duet: {
      basis: 'topology',
      layout: '1 package × 2 cores × 2 threads',
      harness: '0,2',
      slots: ['1', '3'],
      idle: null,
      spare: null,
      siblingsInUse: true,
      reasons: [
        "no core to spare for the harness: it runs on the measured CPUs' SMT siblings (0,2), one per side, asleep while an iteration runs",
      ],
    },
    single: null,
  },
  perf: { path: null, paranoid: 4, hardwareCounters: false },
  timer: { path: '/home/runner/.cache/duetkit/timer-1/duetkit-timer', reason: null },
  clocksource: {
    current: 'hyperv_clocksource_tsc_page',
    available: ['hyperv_clocksource_tsc_page', 'acpi_pm'],
  },
  isolation: {
    requested: 'auto',
    kind: 'cgroup-v2',
    slots: ['1', '3'],
    harnessCpus: '0,2',
    cgroup: '/sys/fs/cgroup/duetkit-1-x',
    cpuWeight: 'cpu.weight=10000',
    partition: 'root',
    warnings: ['cgroups were created through sudo -n'],
  },
  fingerprint,
};

describe('assessDoctor', () => {
  it("GitHub's runner: cgroup v2 through sudo, a partition, the plan on SMT siblings", () => {
    const text = renderDoctorText(assessDoctor(github));
    expect(text).toContain(
      '! isolation: a duet here runs with isolation cgroup-v2: CPUs 1 | 3, cpu.weight=10000, exclusive (partition root), harness on CPU 0,2\n    cgroups were created through sudo -n',
    );
    expect(text).toContain(
      '✓ cgroup: cgroup v2 at /sys/fs/cgroup: controllers cpuset cpu io memory hugetlb pids rdma misc; delegated to children: memory pids',
    );
    expect(text).toContain('✓ privileges: sudo -n works');
    expect(text).toMatch(
      /! partition: no group shows cpuset.cpus.partition yet .* a run tries \(kernel 6\.11/,
    );
    expect(text).toContain(
      "! cpus: 4 CPUs (0-3), 1 package × 2 cores × 2 threads; a duet's CPU plan: harness 0,2, base 1, head 3\n    no core to spare",
    );
    expect(text).toMatch(
      /! perf: perf not on PATH; perf_event_paranoid 4 \(without root: .*\); hardware counters absent/,
    );
    expect(text).toContain('✓ clock: clock source hyperv_clocksource_tsc_page');
    expect(text.split('\n')[0]).toMatch(
      /^✓ machine: AMD EPYC 7763 64-Core Processor, microcode 0xffffffff, 4 vCPUs/,
    );
  });

  it('a first run that said taskset: why no cgroups (v2 without sudo), and what would help', () => {
    const probe: DoctorProbe = {
      ...github,
      sudo: false,
      isolation: {
        ...github.isolation,
        kind: 'taskset',
        cgroup: null,
        warnings: [
          'no cpuset: no cgroup v1 cpuset hierarchy is mounted',
          'no cpuset: cgroup v2 needs root or passwordless sudo (sudo -n) to create cgroups',
        ],
      } as DoctorProbe['isolation'],
    };
    const findings = assessDoctor(probe);
    const isolation = findings.find((f) => f.topic === 'isolation')!;
    expect(isolation.status).toBe('warn');
    expect(isolation.details).toContain(
      'no cpuset: cgroup v2 needs root or passwordless sudo (sudo -n) to create cgroups',
    );
    expect(isolation.details.at(-1)).toMatch(/cgroups need .* root or passwordless sudo/);
    expect(findings.find((f) => f.topic === 'privileges')).toMatchObject({
      status: 'no',
      details: ['cgroup v2 needs root or passwordless sudo to create cgroups'],
    });
  });

  it('cgroup v1 as root, no timer, a slow clock, a refused isolation', () => {
    const probe: DoctorProbe = {
      ...github,
      root: true,
      sudo: null,
      cgroup: {
        version: 'v1',
        v1: { cpuset: '/sys/fs/cgroup/cpuset', cpu: null, writable: true },
        v2: null,
      },
      timer: { path: null, reason: "no C compiler could build duetkit's timer (cc : not found)" },
      clocksource: { current: 'hpet', available: ['hpet', 'acpi_pm'] },
      perf: { path: '/usr/bin/perf', paranoid: 2, hardwareCounters: true },
      isolation: { error: 'boom' },
    };
    const byTopic = Object.fromEntries(assessDoctor(probe).map((f) => [f.topic, f]));
    expect(byTopic.cgroup).toMatchObject({
      status: 'ok',
      text: 'cgroup v1: cpuset at /sys/fs/cgroup/cpuset (writable), cpu at none',
      details: ['no cpu hierarchy: the measured CPUs get no raised weight'],
    });
    expect(byTopic.partition!.text).toMatch(/cgroup v2 feature: not on this machine/);
    expect(byTopic.timer).toMatchObject({ status: 'warn' });
    expect(byTopic.timer!.details).toContain('install a C compiler (cc) so duetkit can build it');
    expect(byTopic.clock!.details[0]).toMatch(/hpet is read through a system call/);
    expect(byTopic.perf).toMatchObject({ status: 'ok' });
    expect(byTopic.perf!.text).toMatch(/perf_event_paranoid 2 \(root is not restricted by it\)/);
    expect(byTopic.isolation).toMatchObject({ status: 'no', details: ['boom'] });
  });
});
