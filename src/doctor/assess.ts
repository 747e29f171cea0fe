import { formatCpuList } from '../isolation/cpus.js';
import { describeFingerprint } from '../report/fingerprint-text.js';
import type { CpuPlanRecord, IsolationReport } from '../contracts/isolation.js';
import type { DoctorProbe } from './probe.js';

/** One thing `duetkit doctor` says: what duetkit can use here, or why not. */
export interface Finding {
  topic:
    | 'machine'
    | 'isolation'
    | 'cgroup'
    | 'privileges'
    | 'partition'
    | 'cpus'
    | 'perf'
    | 'timer'
    | 'clock';
  /** `ok`: used as intended; `warn`: works, weaker than it could be; `no`: unavailable. */
  status: 'ok' | 'warn' | 'no';
  text: string;
  /** Further lines: reasons, warnings, what would help. */
  details: string[];
}

/** Clock sources that are slow to read (a syscall per timestamp instead of the vDSO). */
const SLOW_CLOCKS = new Set(['hpet', 'acpi_pm', 'jiffies', 'xen', 'pit']);

/** What to say from what was probed. Pure. */
export function assessDoctor(probe: DoctorProbe): Finding[] {
  return [
    {
      topic: 'machine',
      status: 'ok',
      text: describeFingerprint(probe.fingerprint),
      details: [],
    },
    isolationFinding(probe.isolation),
    cgroupFinding(probe),
    privilegesFinding(probe),
    partitionFinding(probe),
    cpusFinding(probe),
    perfFinding(probe.perf, probe.root),
    timerFinding(probe.timer),
    clockFinding(probe.clocksource),
  ];
}

function isolationFinding(isolation: DoctorProbe['isolation']): Finding {
  if ('error' in isolation) {
    return {
      topic: 'isolation',
      status: 'no',
      text: 'isolation: auto could not be set up',
      details: [isolation.error],
    };
  }
  const slots = isolation.slots.map((s) => s ?? 'any').join(' | ');
  const extras = [
    isolation.cpuWeight,
    isolation.partition === undefined ? undefined : `exclusive (partition ${isolation.partition})`,
    isolation.harnessCpus === null ? undefined : `harness on CPU ${isolation.harnessCpus}`,
  ].filter((x): x is string => x !== undefined);
  return {
    topic: 'isolation',
    status: isolation.kind.startsWith('cgroup')
      ? isolation.warnings.length > 0
        ? 'warn'
        : 'ok'
      : isolation.kind === 'taskset'
        ? 'warn'
        : 'no',
    text: `a duet here runs with isolation ${isolation.kind}: CPUs ${slots}${extras.length > 0 ? `, ${extras.join(', ')}` : ''}`,
    details: [...isolation.warnings, ...whyNotCgroups(isolation)],
  };
}

/** For a taskset or none result: what would give it cgroups. */
function whyNotCgroups(isolation: IsolationReport): string[] {
  if (isolation.kind.startsWith('cgroup')) return [];
  return [
    'cgroups need a writable cgroup v1 cpuset hierarchy (root), or cgroup v2 with the cpuset controller and root or passwordless sudo (sudo -n): see the lines below',
  ];
}

function cgroupFinding(probe: DoctorProbe): Finding {
  const { version, v1, v2 } = probe.cgroup;
  if (version === 'v1' && v1 !== null) {
    return {
      topic: 'cgroup',
      status: v1.writable ? 'ok' : 'no',
      text: `cgroup v1: cpuset at ${v1.cpuset ?? 'none'}${v1.writable ? ' (writable)' : ' (not writable by this user)'}, cpu at ${v1.cpu ?? 'none'}`,
      details: v1.cpu === null ? ['no cpu hierarchy: the measured CPUs get no raised weight'] : [],
    };
  }
  if (version === 'v2' && v2 !== null) {
    const missing = ['cpuset', 'cpu'].filter((c) => !v2.controllers.includes(c));
    return {
      topic: 'cgroup',
      status: missing.includes('cpuset') ? 'no' : missing.length > 0 ? 'warn' : 'ok',
      text: `cgroup v2 at ${v2.mount}: controllers ${v2.controllers.join(' ') || 'none'}; delegated to children: ${v2.subtreeControl.join(' ') || 'none'}`,
      details: missing.map((c) =>
        c === 'cpuset'
          ? 'no cpuset controller: CPU sets cannot be made with cgroups here'
          : 'no cpu controller: the measured CPUs get no raised weight',
      ),
    };
  }
  return {
    topic: 'cgroup',
    status: 'no',
    text: 'no cgroup hierarchy with CPU controllers is mounted',
    details: [],
  };
}

function privilegesFinding(probe: DoctorProbe): Finding {
  if (probe.root) {
    return { topic: 'privileges', status: 'ok', text: 'running as root', details: [] };
  }
  return probe.sudo === true
    ? {
        topic: 'privileges',
        status: 'ok',
        text: 'sudo -n works: cgroups are made through it',
        details: [],
      }
    : {
        topic: 'privileges',
        status: probe.cgroup.version === 'v2' ? 'no' : 'warn',
        text: 'not root, and sudo -n asks for a password (or is missing)',
        details: ['cgroup v2 needs root or passwordless sudo to create cgroups'],
      };
}

function partitionFinding(probe: DoctorProbe): Finding {
  const v2 = probe.cgroup.v2;
  if (probe.cgroup.version !== 'v2' || v2 === null) {
    return {
      topic: 'partition',
      status: 'no',
      text: 'exclusive CPUs (cpuset.cpus.partition) are a cgroup v2 feature: not on this machine',
      details: [],
    };
  }
  const plan = probe.plans.duet;
  const details =
    plan !== null && plan.harness === null
      ? [
          'with no CPU left for the harness and the rest of the machine, a duet does not ask for one',
        ]
      : [];
  if (v2.partitionFile === true) {
    return {
      topic: 'partition',
      status: 'ok',
      text: 'the kernel offers cpuset.cpus.partition: the measured CPUs are made a partition root for a run',
      details,
    };
  }
  return {
    topic: 'partition',
    status: 'warn',
    text: `no group shows cpuset.cpus.partition yet (the root delegates: ${v2.subtreeControl.join(' ') || 'none'}); Linux 5.11 and later offer it, and a run tries (kernel ${probe.kernel})`,
    details,
  };
}

function cpusFinding(probe: DoctorProbe): Finding {
  const plan = probe.plans.duet;
  const head = `${probe.cpus.length} CPUs (${formatCpuList(probe.cpus)})${probe.layout === null ? ', topology unreadable' : `, ${probe.layout}`}`;
  if (plan === null) {
    return {
      topic: 'cpus',
      status: 'no',
      text: `${head}: too few CPUs for two disjoint sets; a duet runs without CPU isolation`,
      details: [],
    };
  }
  return {
    topic: 'cpus',
    status:
      plan.harness === null || plan.siblingsInUse || plan.basis === 'in order' ? 'warn' : 'ok',
    text: `${head}; a duet's CPU plan: ${describePlan(plan)}`,
    details: plan.reasons,
  };
}

/** `harness 0,2, base 1, head 3` with idle and spare CPUs when there are. */
export function describePlan(plan: CpuPlanRecord): string {
  const sides = plan.slots.length === 2 ? ['base', 'head'] : plan.slots.map((_, i) => `slot ${i}`);
  return [
    `harness ${plan.harness ?? 'shares the measured CPUs'}`,
    ...plan.slots.map((s, i) => `${sides[i]} ${s}`),
    ...(plan.idle === null ? [] : [`idle ${plan.idle}`]),
    ...(plan.spare === null ? [] : [`spare ${plan.spare}`]),
  ].join(', ');
}

function perfFinding(perf: DoctorProbe['perf'], root: boolean): Finding {
  const paranoid =
    perf.paranoid === null
      ? 'perf_event_paranoid unreadable'
      : `perf_event_paranoid ${perf.paranoid}${root ? ' (root is not restricted by it)' : perf.paranoid >= 2 ? ' (without root: user-space counting of own processes only)' : ''}`;
  return {
    topic: 'perf',
    status: perf.path !== null && perf.hardwareCounters ? 'ok' : 'warn',
    text: `perf ${perf.path === null ? 'not on PATH' : `at ${perf.path}`}; ${paranoid}; hardware counters ${perf.hardwareCounters ? 'present' : "absent (no CPU PMU: usual in VMs such as GitHub's x64 runners)"}`,
    details: [],
  };
}

function timerFinding(timer: DoctorProbe['timer']): Finding {
  return timer.path !== null
    ? {
        topic: 'timer',
        status: 'ok',
        text: `the command timer is built: ${timer.path}`,
        details: [],
      }
    : {
        topic: 'timer',
        status: 'warn',
        text: "the command timer could not be built: commands are timed by the harness's clock",
        details: [
          timer.reason ?? 'unknown reason',
          'install a C compiler (cc) so duetkit can build it',
        ],
      };
}

function clockFinding(clock: DoctorProbe['clocksource']): Finding {
  if (clock.current === null) {
    return {
      topic: 'clock',
      status: 'warn',
      text: 'the clock source could not be read',
      details: [],
    };
  }
  const slow = SLOW_CLOCKS.has(clock.current);
  return {
    topic: 'clock',
    status: slow ? 'warn' : 'ok',
    text: `clock source ${clock.current} (available: ${clock.available.join(' ') || 'unknown'})`,
    details: slow
      ? [`${clock.current} is read through a system call: every timestamp costs microseconds`]
      : [],
  };
}
