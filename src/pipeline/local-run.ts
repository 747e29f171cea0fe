import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { assessSuiteLook, largestHalfWidth } from '../analyze/analyze.js';
import { runSuite } from '../suite/run-suite.js';
import { efficiencyOf } from '../analyze/efficiency.js';
import type { SuiteRecord } from '../contracts/suite-record.js';
import { createGit, type Git } from '../git/git.js';
import { createWorktreeSet } from '../git/worktrees.js';
import { sweepV2Leftovers } from '../isolation/cgroup-v2.js';
import { chooseIsolation } from '../isolation/choose.js';
import type { Isolation } from '../isolation/types.js';
import type { IsolationReport } from '../contracts/isolation.js';
import type { LoadedScenario } from '../scenario/load.js';
import type { Scenario } from '../scenario/schema.js';
import { createRng, randomSeed } from '../stats/rng.js';
import {
  runExperiment,
  type ExperimentOptions,
  type ExperimentResult,
  type Progress,
} from '../runner/experiment.js';
import { buildFingerprint } from '../runner/fingerprint.js';
import { probeFingerprint } from '../runner/fingerprint-probe.js';
import { machineInfo } from '../runner/machine.js';
import { getMode } from '../runner/modes/registry.js';
import {
  SAMPLES_SCHEMA_VERSION,
  type SamplesFile,
  type TimingRecord,
  type VersionRecord,
} from '../contracts/samples.js';
import { runPerBenchmark } from '../runner/per-benchmark.js';
import { prepareVersions } from '../runner/versions.js';
import { buildTimer, type TimerBuild } from '../runner/timer/build.js';
import { RunError } from '../process/errors.js';
import { VERSION } from '../version.js';
import { wallOnly } from '../scenario/metric-list.js';

/**
 * duetkit's own version, as samples files record it. Not `npm_package_version`: under a
 * user's `npm run bench`, npm sets that to the user's package version.
 */
export const TOOL_VERSION = VERSION;

export interface RunOptions {
  /** Overrides the scenario's seed; without either, one is drawn and recorded. */
  seed?: number;
  signal: AbortSignal;
  env: NodeJS.ProcessEnv;
  onProgress?: (progress: Progress) => void;
  /** Told at once what the user should know before the run ends (a budget too small...). */
  onNotice?: (message: string) => void;
  /** Told when measuring starts, with the isolation in effect (for the user's terminal). */
  onIsolation?: (report: IsolationReport) => void;
  /**
   * Called once the measurement is complete, before the checkouts and the isolation are
   * removed (profiling.ts's profiles after the verdict). Must not throw.
   */
  afterMeasured?: (run: MeasuredRun) => Promise<void>;
  /** Seams for tests; the defaults touch the real system. */
  gitAt?: (cwd: string) => Git;
  choose?: typeof chooseIsolation;
  worktreeParent?: string;
}

/** What a complete run leaves for `afterMeasured`: its samples, checkouts and slots. */
export interface MeasuredRun {
  samples: SamplesFile;
  isolation: Isolation;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
}

/**
 * A whole run: versions checked out and built, isolation set up, the experiment, and the
 * samples it produced. Worktrees and cgroups are removed whatever happens. Failures and
 * interruptions come back as an incomplete samples file (`complete: false`, `error`), so the
 * caller can save what was gathered before reporting the error.
 */
export async function runScenario(
  loaded: LoadedScenario,
  options: RunOptions,
): Promise<SamplesFile> {
  const { scenario } = loaded;
  const seed = options.seed ?? scenario.seed ?? randomSeed();
  const machine = machineInfo();
  // Before the fingerprint reads this process's CPUs: a partition a killed run left would hide
  // its CPUs until chooseIsolation sweeps (the runner-like VM showed "2 vCPUs" of 4).
  await sweepV2Leftovers();
  const probe = await probeFingerprint(options.env).catch(() => null);
  const gitAt = options.gitAt ?? createGit;
  const worktrees = createWorktreeSet(gitAt(loaded.baseDir), options.worktreeParent);
  let isolation: Isolation | null = null;
  let timing: TimingRecord | undefined;
  let suite: SuiteRecord | undefined;
  let measuredUntil: string | undefined;
  let versions: VersionRecord[] = scenario.versions.map((v) => ({
    name: v.name,
    source: v.path !== undefined ? { path: v.path } : { ref: v.ref! },
    commit: null,
    dirty: false,
    dir: '',
  }));
  let result: ExperimentResult & Pick<SamplesFile, 'perBenchmark'> = {
    trials: [],
    order: [],
    stopReason: 'failed',
    error: null,
    startedAt: new Date(),
    staggerMs: null,
  };
  const samples = (): SamplesFile => ({
    schemaVersion: SAMPLES_SCHEMA_VERSION,
    tool: { name: 'duetkit', version: TOOL_VERSION },
    complete: result.stopReason !== 'interrupted' && result.stopReason !== 'failed',
    stopReason: result.stopReason,
    error: result.error,
    scenario,
    scenarioFile: loaded.file,
    mode: scenario.mode,
    seed,
    startedAt: result.startedAt.toISOString(),
    // Profiling after the verdict is not part of the run's machine time (efficiency).
    finishedAt: measuredUntil ?? new Date().toISOString(),
    machine:
      probe === null
        ? machine
        : { ...machine, fingerprint: buildFingerprint(probe, isolation?.report.kind ?? null) },
    isolation: isolation?.report ?? notSetUp(scenario.isolation),
    ...(timing === undefined ? {} : { timing }),
    versions,
    order: result.order,
    trials: result.trials,
    ...(result.perBenchmark === undefined ? {} : { perBenchmark: result.perBenchmark }),
    ...(suite === undefined ? {} : { suite }),
  });
  try {
    versions = await prepareVersions(scenario.versions, {
      baseDir: loaded.baseDir,
      gitAt,
      worktrees,
      env: options.env,
      signal: options.signal,
    });
    isolation = await (options.choose ?? chooseIsolation)(scenario.isolation, {
      slotCount: getMode(scenario.mode).slotCount(versions.length),
      cpuWeight: scenario.cpuWeight,
    });
    options.onIsolation?.(isolation.report);
    const built = await buildTimer(options.env);
    const timer = built.path;
    const { metric, format, driver } = scenario.workload;
    // The service drivers make their own metrics (latencies, a program's samples, k6's).
    timing =
      driver === 'command' || driver === 'persistent'
        ? timingRecord(scenario.workload, built)
        : undefined;
    if (built.path === null && driver === 'command' && format === undefined && !wallOnly(metric)) {
      throw new RunError(
        `workload.metric ${metric.join(', ')} needs the command's ${metric.includes('cpu') ? (metric.includes('rss') ? 'CPU time and peak RSS' : 'CPU time') : 'peak RSS'}, which only duetkit's timer takes, and ${built.reason}; install a C compiler (cc), or use metric: wall`,
      );
    }
    const experiment: ExperimentOptions = {
      scenario,
      versions,
      isolation,
      rng: createRng(seed),
      signal: options.signal,
      env: options.env,
      timer,
      onProgress: options.onProgress,
      // A quick look (fewer resamples) is enough to decide whether to keep measuring.
      halfWidth: (trials) =>
        largestHalfWidth(
          // Only what has been measured: benchmarks that never run must not block stopping.
          { ...samples(), trials: [...trials], perBenchmark: undefined },
          { resamples: 2000 },
        ),
    };
    const baseline = scenario.analysis.baseline ?? scenario.versions[0]!.name;
    if (scenario.suite !== undefined) {
      const suiteResult = await runSuite({
        ...experiment,
        baseline,
        workDir: await mkdtemp(path.join(os.tmpdir(), 'duetkit-suite-')),
        assess: (trials, unit, pairs, look, familySize, schedule, callFloor) =>
          assessSuiteLook(
            { ...samples(), trials: [...trials], perBenchmark: undefined },
            unit,
            pairs,
            look,
            familySize,
            schedule,
            callFloor,
          ),
        ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }),
      });
      suite = suiteResult.suite;
      result = suiteResult;
    } else {
      result = scenario.workload.perBenchmark
        ? await runPerBenchmark({ ...experiment, baseline })
        : await runExperiment(experiment);
    }
    // Only the timer delays a start (the shell gate starts at once).
    if (timing?.clock === 'timer' && result.staggerMs !== null) {
      timing = { ...timing, staggerMs: result.staggerMs };
    }
    const measured = result.stopReason !== 'failed' && result.stopReason !== 'interrupted';
    if (options.afterMeasured !== undefined && measured && !options.signal.aborted) {
      measuredUntil = new Date().toISOString();
      await options.afterMeasured({
        samples: samples(),
        isolation,
        env: options.env,
        signal: options.signal,
      });
    }
  } catch (error) {
    result = {
      ...result,
      stopReason: options.signal.aborted ? 'interrupted' : 'failed',
      error: options.signal.aborted
        ? `interrupted by ${String(options.signal.reason)}`
        : (error as Error).message,
    };
  } finally {
    // One after the other, isolation first: it moves the harness out of its cgroup and then
    // kills what is left in the groups, which would include a `git worktree remove` the
    // harness had started meanwhile (its children inherit the harness's group).
    const cleanup = [
      ...(await Promise.allSettled([isolation?.dispose()])),
      ...(await Promise.allSettled([worktrees.dispose()])),
    ];
    const failed = cleanup.find((c) => c.status === 'rejected');
    if (failed !== undefined && result.error === null) {
      result = {
        ...result,
        stopReason: 'failed',
        error: `cleanup: ${String((failed as PromiseRejectedResult).reason)}`,
      };
    }
  }
  const file = samples();
  return file.trials.length === 0 ? file : { ...file, efficiency: efficiencyOf(file) };
}

function notSetUp(requested: IsolationReport['requested']): IsolationReport {
  return {
    requested,
    kind: 'none',
    slots: [],
    harnessCpus: null,
    cgroup: null,
    warnings: ['isolation was never set up: the run stopped before measuring'],
  };
}

/** How a command or persistent workload's iterations are timed (contracts/samples.ts). */
function timingRecord(workload: Scenario['workload'], built: TimerBuild): TimingRecord {
  return {
    driver: workload.driver as TimingRecord['driver'],
    clock: built.path === null ? 'harness' : 'timer',
    // Without the timer nothing keeps a CPU busy; behind the relay, `repeat` spins.
    keepBusy:
      built.path === null
        ? 'off'
        : workload.driver === 'persistent' && workload.keepBusy === 'repeat'
          ? 'spin'
          : workload.keepBusy,
    warnings:
      built.path === null
        ? [
            `commands are timed by the harness's clock, which blurs differences below its wake-up latency: ${built.reason}; install a C compiler (cc) so duetkit can build its timer`,
          ]
        : [],
  };
}
