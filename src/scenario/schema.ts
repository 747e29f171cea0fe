import { z } from 'zod';
import { argv, duration, level, metricList, threshold, versionName } from './fields.js';
import { METRICS, wallOnly } from './metric-list.js';
import { formatNames, getFormat, perBenchmarkFormats } from '../formats/registry.js';
import { benchmarkPatternProblem } from './benchmark-pattern.js';
import { benchmarkCommand } from './benchmark-command.js';
import { loadSchema, serverSchema, streamSchema } from './service-schema.js';
import { checkServiceWorkload } from './service-checks.js';
import { STATISTICS } from '../stats/types.js';
import { suiteSchema } from '../suite/schema.js';
import { clusterSchema } from '../cluster/schema.js';
import { defaultProfile, profileSchema } from './profile-schema.js';

/**
 * The one schema of a scenario file (`scenarios/*.yml`). Documented field by field in
 * docs/scenario.md; every default is stated there and here.
 */

export { METRICS };

/** Every workload driver (src/runner/drivers/registry.ts). */
export const DRIVERS = ['command', 'persistent', 'http', 'stream', 'k6'] as const;

const version = z
  .object({
    name: versionName,
    /** A directory, relative to the scenario file. */
    path: z.string().min(1).optional(),
    /** A git ref of the repository holding the scenario, checked out as a worktree. */
    ref: z.string().min(1).optional(),
    /** With `ref`: the directory inside the checkout to run in. Default: its root. */
    dir: z.string().min(1).optional(),
    /** Build command run once in the version's directory before any measurement. */
    setup: argv.optional(),
    /** Extra environment variables for this version's setup, listing and workload. */
    env: z.record(z.string(), z.string()).default({}),
  })
  .strict()
  .refine((v) => (v.path === undefined) !== (v.ref === undefined), {
    message: 'exactly one of "path" (a directory) or "ref" (a git ref)',
  })
  .refine((v) => v.dir === undefined || v.ref !== undefined, {
    message: '"dir" only together with "ref" (for "path", write the directory into the path)',
    path: ['dir'],
  });

const workload = z
  .object({
    /**
     * `command`: a process per iteration; `persistent`: one process driven by docs/protocol.md;
     * `http`, `stream`, `k6`: services under load (docs/services.md).
     */
    driver: z.enum(DRIVERS).default('command'),
    /** Required by every driver but `http`, which sends requests to `server` instead. */
    command: argv.optional(),
    /** http, k6: the servers each version starts for the whole run (docs/services.md). */
    server: serverSchema.optional(),
    /** http: the load offered to the servers in each iteration. */
    load: loadSchema.optional(),
    /** stream: how the program's timestamped samples are trimmed and summarised. */
    stream: streamSchema.optional(),
    /**
     * Absent: the harness measures wall time. Otherwise a format of src/formats (or `auto`)
     * reads each iteration's stdout. Not with `persistent`, whose replies carry results.
     */
    format: z
      .string()
      .refine((f) => f === 'auto' || formatNames().includes(f), {
        error: () => `one of: auto, ${formatNames().join(', ')}`,
      })
      .optional(),
    /**
     * Without a format, what a command is measured by, one benchmark each: `wall` (default),
     * the time from its start to its exit; `cpu`, its CPU time (user + system, its own and its
     * waited-for children's), which does not count time spent waiting for a CPU, for I/O or
     * asleep; `rss`, its peak resident set size in KiB (src/scenario/metric-list.ts); `both`,
     * `[wall, cpu]`; or a list such as `[wall, cpu, rss]`. `cpu` and `rss` are taken by
     * duetkit's timer on the side's own CPU. Parsed into the list.
     */
    metric: metricList.default(['wall']),
    /**
     * The benchmark's name for the first metric of the list. Default `wall-time`, `cpu-time`,
     * `peak-rss`; the others' are this name followed by ` (cpu)`, ` (rss)`, ` (wall)`.
     */
    name: z.string().min(1).optional(),
    /** Extra environment variables for the command. */
    env: z.record(z.string(), z.string()).default({}),
    /**
     * A file the command writes (relative to the version's directory) that the format reads
     * instead of stdout; removed before each iteration so a stale one is never read.
     */
    output: z.string().min(1).optional(),
    /**
     * In a duet, what a side that finishes its iteration first does until the other has
     * finished too: `spin` busy-loops, `repeat` runs the command again (output discarded;
     * only for commands without side effects), `off` leaves the CPU idle. Default `spin`:
     * no side runs its last stretch alone, and nothing runs that the user did not ask for.
     */
    keepBusy: z.enum(['spin', 'repeat', 'off']).default('spin'),
    /**
     * In a duet of commands, start the sides this much apart (a random side starts later each
     * round), so that they never end at the same moment: on VMs, two processes that exit
     * together on two CPUs hold each other up, which pulls small differences to zero
     * (BENCHMARKS.md, "Fidelity"). `auto` (default): a tenth of an iteration, at most 2 ms;
     * `off`; or a duration.
     */
    stagger: z.union([z.literal('auto'), z.literal('off'), duration]).default('auto'),
    /** Run the suite one benchmark at a time, each in both versions at once. Default false. */
    perBenchmark: z.boolean().default(false),
    /** With `perBenchmark`: which listed benchmarks to run, by name or `/regex/`. Default all. */
    benchmarks: z.array(z.string().min(1)).min(1).optional(),
    /**
     * With a format: the command that runs one benchmark alone, `{benchmark}` where its name
     * goes (src/scenario/benchmark-command.ts). The profiles run it, one benchmark per process.
     * Absent: a format's own filter where it has one, else the whole command.
     */
    benchmarkCommand: benchmarkCommand.optional(),
  })
  .strict()
  // Drivers other than http always have a command (checked below): code may rely on it.
  .transform((w) => ({ ...w, command: w.command ?? [] }));

const stopping = z
  .object({
    /** Stop when every CI half-width (relative change) is at or below this fraction. */
    halfWidth: z.number().positive().max(1),
    /** Measured iterations before the first check. Default 10. */
    minIterations: z.number().int().min(2).default(10),
    /** Check again after this many further iterations. Default 5. */
    checkEvery: z.number().int().min(1).default(5),
  })
  .strict();

const analysis = z
  .object({
    level: level.default(0.99),
    statistic: z.enum(STATISTICS).optional(),
    method: z.enum(['percentile', 'bca']).default('bca'),
    threshold: threshold.default(0.05),
    /**
     * Thresholds of their own for some results, beside `threshold` (the rest's): by kind of
     * metric, `time` (units of time) and `memory` (bytes, KiB, allocations), or by a
     * benchmark's full name, which comes first (src/analyze/thresholds.ts).
     */
    thresholds: z.record(z.string().min(1), threshold).optional(),
    resamples: z.number().int().min(100).max(1_000_000).default(10_000),
    adjustment: z.enum(['holm', 'bh', 'none']).default('holm'),
    blockLength: z.union([z.literal('auto'), z.number().int().min(1)]).default('auto'),
    /** The version the others are compared against. Default: the first. */
    baseline: versionName.optional(),
  })
  .strict();

export const MODES = ['duet', 'rmit', 'mit', 'mct', 'single'] as const;
export const ISOLATIONS = ['auto', 'cpuset', 'taskset', 'none'] as const;

export const scenarioSchema = z
  .object({
    name: z.string().min(1).default('scenario'),
    mode: z.enum(MODES).default('duet'),
    versions: z.array(version).min(2, 'at least two versions to compare'),
    workload,
    /** Measured iterations (duet), rounds (rmit, mit) or trials per version (mct). Default 30. */
    iterations: z.number().int().min(1).max(1_000_000).default(30),
    /** Iterations run first and discarded (recorded as warm-up). Default 1. */
    warmup: z.number().int().min(0).default(1),
    /** Time limit of one iteration. Default 60 s. */
    timeout: duration.default(60),
    /** Time limit of the whole measurement; the run stops cleanly when it is spent. */
    budget: duration.optional(),
    stopping: stopping.optional(),
    /** A per-benchmark suite under one budget: looks, allocation, build once (docs/suites.md). */
    suite: suiteSchema.optional(),
    isolation: z.enum(ISOLATIONS).default('auto'),
    /**
     * With cgroups: give the measured processes the largest CPU weight, so that anything else
     * on their CPUs gets little time while an iteration runs. Default true.
     */
    cpuWeight: z.boolean().default(true),
    /** PRNG seed for orders and the bootstrap. Default: drawn and recorded. */
    seed: z.number().int().min(0).max(0xffffffff).optional(),
    analysis: analysis.default(() => analysis.parse({})),
    /** Run in a Kubernetes cluster (docs/cluster.md). Absent: on this machine. */
    cluster: clusterSchema.optional(),
    /** Profiles of base and head after the verdict (docs/explain.md). Default `changed`. */
    profile: profileSchema.default(defaultProfile),
  })
  .strict()
  .superRefine((s, ctx) => {
    const names = s.versions.map((v) => v.name);
    names.forEach((name, i) => {
      if (names.indexOf(name) !== i) {
        ctx.addIssue({ code: 'custom', path: ['versions', i, 'name'], message: 'a unique name' });
      }
    });
    if (s.mode === 'duet' && s.versions.length !== 2) {
      ctx.addIssue({
        code: 'custom',
        path: ['versions'],
        message: 'exactly two versions in duet mode (rmit, mit and mct take two or more)',
      });
    }
    if (s.analysis.baseline !== undefined && !names.includes(s.analysis.baseline)) {
      ctx.addIssue({
        code: 'custom',
        path: ['analysis', 'baseline'],
        message: `one of the version names: ${names.join(', ')}`,
      });
    }
    if (s.workload.driver === 'persistent' && s.workload.format !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['workload', 'format'],
        message:
          'no format with the persistent driver: results come in its replies (docs/protocol.md)',
      });
    }
    checkPerBenchmark(s.workload, ctx);
    checkBenchmarkCommand(s.workload, ctx);
    checkServiceWorkload(s, ctx);
    if (s.suite !== undefined && (!s.workload.perBenchmark || s.budget === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['suite'],
        message:
          'workload.perBenchmark: true and a budget: a suite shares one budget over its benchmarks',
      });
    }
    if (s.suite !== undefined && s.mode !== 'duet' && s.mode !== 'rmit') {
      ctx.addIssue({
        code: 'custom',
        path: ['suite'],
        message: 'mode duet or rmit (paired rounds)',
      });
    }
    if (s.stopping !== undefined && (s.mode === 'mct' || s.mode === 'single')) {
      ctx.addIssue({
        code: 'custom',
        path: ['stopping'],
        message: 'precision-based stopping only in duet, rmit and mit mode (they run in rounds)',
      });
    }
  });

/** The workload fields that only make sense together: `output`, `perBenchmark`, `benchmarks`. */
function checkPerBenchmark(w: z.output<typeof workload>, ctx: z.RefinementCtx): void {
  const issue = (field: string, message: string): void =>
    ctx.addIssue({ code: 'custom', path: ['workload', field], message });
  if (w.output !== undefined && w.format === undefined) {
    issue(
      'output',
      'no output file without a format: set workload.format to the one that reads it',
    );
  }
  if (!wallOnly(w.metric) && (w.format !== undefined || w.driver !== 'command')) {
    issue(
      'metric',
      w.format !== undefined
        ? 'wall: the other metrics are for a command without a format (with one, the values are what the tool reports)'
        : 'wall: the other metrics are for the command driver (a persistent program reports its own values)',
    );
  }
  if (w.benchmarks !== undefined && !w.perBenchmark) {
    issue('benchmarks', 'a benchmark list only together with perBenchmark: true');
  }
  w.benchmarks?.forEach((pattern, i) => {
    const problem = benchmarkPatternProblem(pattern);
    if (problem !== null) {
      ctx.addIssue({ code: 'custom', path: ['workload', 'benchmarks', i], message: problem });
    }
  });
  if (!w.perBenchmark) return;
  const able = perBenchmarkFormats().join(', ');
  if (w.driver !== 'command') {
    issue('perBenchmark', 'the command driver: a persistent program runs its own benchmarks');
  } else if (
    w.format === undefined ||
    w.format === 'auto' ||
    getFormat(w.format).perBenchmark === undefined
  ) {
    const why =
      w.format === undefined || w.format === 'auto' ? '' : ` (${w.format} runs its whole suite)`;
    issue(
      'format',
      `a format that can run one benchmark at a time, for perBenchmark: ${able}${why}`,
    );
  }
}

/**
 * `benchmarkCommand` only where a command reports several benchmarks and nothing else picks
 * one: a command without a format is one benchmark, timed whole; `perBenchmark` runs each
 * with the format's own filter.
 */
function checkBenchmarkCommand(w: z.output<typeof workload>, ctx: z.RefinementCtx): void {
  const issue = (message: string): void =>
    ctx.addIssue({ code: 'custom', path: ['workload', 'benchmarkCommand'], message });
  if (w.benchmarkCommand === undefined) return;
  if (w.driver !== 'command') {
    issue(`nothing with the ${w.driver} driver: only commands are profiled`);
  } else if (w.format === undefined) {
    issue('nothing without a format: the command is one benchmark, timed and profiled whole');
  } else if (w.perBenchmark) {
    issue(
      "nothing with perBenchmark: true, which runs each benchmark with the format's own filter",
    );
  }
}

/** A validated scenario with every default filled in. */
export type Scenario = z.output<typeof scenarioSchema>;
export type ScenarioInput = z.input<typeof scenarioSchema>;
export type Mode = Scenario['mode'];
export type VersionSpec = Scenario['versions'][number];
export type Workload = Scenario['workload'];
export type AnalysisSpec = Scenario['analysis'];
