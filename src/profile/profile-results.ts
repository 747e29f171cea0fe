import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { ComparisonReport } from '../contracts/comparison.js';
import {
  PROFILES_SCHEMA_VERSION,
  type ProfileChunk,
  type ProfilePair,
  type ProfileSide,
  type ProfilesFile,
} from '../contracts/profile.js';
import type { SamplesFile } from '../contracts/samples.js';
import type { Isolation } from '../isolation/types.js';
import type { ProcessResult } from '../process/gated-process.js';
import type { ProfileSpec } from '../scenario/profile-schema.js';
import type { Scenario } from '../scenario/schema.js';
import { runDuet } from './duet.js';
import { chooseProfiler, getProfiler } from './registry.js';
import { profileTargets, type ProfileTarget } from './targets.js';
import { lastLine } from './tool.js';
import type { ProfileJob, ProfilerRoute } from './types.js';

export interface ProfileOptions {
  scenario: Scenario;
  /** The scenario's `profile`, with the command line's policy applied. */
  spec: ProfileSpec;
  /** Machine time profiling may take, s (`profileBudgetSeconds`). */
  budgetSeconds: number;
  samples: SamplesFile;
  report: ComparisonReport;
  /** The versions' checkouts, still in place (samples.versions). */
  versions: SamplesFile['versions'];
  /** The run's isolation, still set up; null runs the sides one after the other anywhere. */
  isolation: Isolation | null;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  /** The results directory: raw profiles go to `profiles/<benchmark>/` inside it. */
  resultsDir: string;
}

/**
 * The profiling stage: after the verdict, base and head of each benchmark the policy names
 * are run again under a sampling profiler, in a duet on the run's slots, doing the same work;
 * their folded stacks become `profiles.json` and their raw profiles stay beside it. Nothing
 * measured is ever profiled. A profiler that is missing or fails is a warning, never an error:
 * the verdict stands without its explanation.
 */
export async function profileResults(options: ProfileOptions): Promise<ProfilesFile> {
  const started = performance.now();
  const file: ProfilesFile = {
    schemaVersion: PROFILES_SCHEMA_VERSION,
    policy: options.spec.when,
    pairs: [],
    seconds: 0,
    warnings: [],
  };
  const finish = (): ProfilesFile => ({ ...file, seconds: (performance.now() - started) / 1000 });
  const { workload } = options.scenario;
  const targets = profileTargets(
    options.spec.when,
    options.report,
    options.samples,
    options.scenario,
  );
  if (targets.length === 0) return finish();
  if (workload.driver !== 'command') {
    file.warnings.push(
      `no profiles: they are taken of command workloads, and this one's driver is ${workload.driver}`,
    );
    return finish();
  }
  const route = getProfiler(chooseProfiler(options.spec.profiler, workload));
  const ready = await route.ready(options.env);
  file.warnings.push(...ready.notes);
  if (ready.problem !== null) {
    file.warnings.push(`no profiles (${route.name}): ${ready.problem}`);
    file.pairs = targets.map((t) => ({
      benchmark: t.benchmark,
      scope: t.scope,
      base: null,
      head: null,
      seconds: 0,
      warning: ready.problem,
    }));
    return finish();
  }
  const scratch = await mkdtemp(path.join(os.tmpdir(), 'duetkit-profile-'));
  const byKey = new Map<string, ProfilePair>();
  try {
    for (const target of targets) {
      const id = `${target.key}\u0000${target.baseline}\u0000${target.version}`;
      const known = byKey.get(id);
      if (known !== undefined) {
        file.pairs.push({ ...known, benchmark: target.benchmark, seconds: 0 });
        continue;
      }
      const left = options.budgetSeconds - (performance.now() - started) / 1000;
      const pair =
        left <= 0 || options.signal.aborted
          ? {
              benchmark: target.benchmark,
              scope: target.scope,
              base: null,
              head: null,
              seconds: 0,
              warning: options.signal.aborted
                ? 'not profiled: the run was interrupted'
                : `not profiled: the profile budget (${options.budgetSeconds} s) was spent`,
            }
          : await profilePair(target, route, scratch, left, options);
      byKey.set(id, pair);
      file.pairs.push(pair);
    }
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
  return finish();
}

/** Base and head of one target, `spec.runs` duets of them while the budget lasts. */
async function profilePair(
  target: ProfileTarget,
  route: ProfilerRoute,
  scratch: string,
  budgetLeft: number,
  options: ProfileOptions,
): Promise<ProfilePair> {
  const started = performance.now();
  const names = [target.baseline, target.version] as const;
  const dir = path.join(options.resultsDir, 'profiles', safeName(target.benchmark));
  await mkdir(dir, { recursive: true });
  const chunks: [ProfileChunk[], ProfileChunk[]] = [[], []];
  const files: [string[], string[]] = [[], []];
  let warning: string | null = null;
  for (let run = 1; run <= options.spec.runs; run++) {
    if ((performance.now() - started) / 1000 >= budgetLeft) {
      warning = `${run - 1} of ${options.spec.runs} runs: the profile budget (${options.budgetSeconds} s) was spent`;
      break;
    }
    if (options.signal.aborted) {
      warning = `${run - 1} of ${options.spec.runs} runs: the run was interrupted`;
      break;
    }
    const jobs = names.map((name) => jobOf(name, target, route, dir, scratch, run, options));
    try {
      for (const job of jobs) await route.prepare?.(job);
      const results = await runDuet(
        [
          { run: route.wrap(jobs[0]!), cwd: jobs[0]!.cwd },
          { run: route.wrap(jobs[1]!), cwd: jobs[1]!.cwd },
        ],
        {
          isolation: options.isolation,
          swap: run % 2 === 0,
          scratch,
          step: run,
          timeoutMs: options.scenario.timeout * 2000,
          signal: options.signal,
        },
      );
      const reads = [];
      for (const side of [0, 1] as const) {
        const failed = failure(results[side]);
        if (failed !== null) throw new Error(`${names[side]}: ${route.name} run failed: ${failed}`);
        reads.push(await route.read(jobs[side]!));
      }
      // Both sides of a run or neither: a differential needs the same runs of each.
      for (const side of [0, 1] as const) {
        chunks[side].push({ stacks: reads[side]!.stacks, work: target.work });
        files[side].push(...reads[side]!.files.map((f) => path.relative(options.resultsDir, f)));
      }
    } catch (error) {
      warning = `${run - 1} of ${options.spec.runs} runs: ${(error as Error).message}`;
      break;
    }
  }
  const side = (i: 0 | 1): ProfileSide | null =>
    chunks[i].length === 0
      ? null
      : {
          version: names[i],
          profiler: route.name,
          workUnit: route.workUnit,
          period: route.period(options.spec.frequency),
          chunks: chunks[i],
          files: files[i],
        };
  return {
    benchmark: target.benchmark,
    scope: target.scope,
    base: side(0),
    head: side(1),
    seconds: (performance.now() - started) / 1000,
    warning,
  };
}

function jobOf(
  name: string,
  target: ProfileTarget,
  route: ProfilerRoute,
  dir: string,
  scratch: string,
  run: number,
  options: ProfileOptions,
): ProfileJob {
  const index = options.versions.findIndex((v) => v.name === name);
  const spec = options.scenario.versions[index];
  return {
    argv: target.argv,
    cwd: options.versions[index]!.dir,
    env: { ...options.env, ...options.scenario.workload.env, ...spec?.env },
    dir,
    stem: `${safeName(name)}.${run}`,
    scratch,
    frequency: options.spec.frequency,
    callGraph: options.spec.callGraph,
  };
}

function failure(result: ProcessResult): string | null {
  if (result.spawnError !== null) return result.spawnError.message;
  if (result.signal !== null) return `killed by ${result.signal}`;
  if (result.code !== 0)
    return `exit ${String(result.code)}: ${lastLine(result.stderr) || 'no message'}`;
  return null;
}

/** A benchmark or version name as a file name. */
export function safeName(name: string): string {
  return name.replace(/[^\w.-]+/g, '_').replace(/^\.+/, '_') || '_';
}
