import { mkdir, realpath, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UserError } from '../errors.js';
import { ScenarioError } from '../scenario/load.js';
import { chooseTool, type ToolChoice } from './choose-tool.js';
import { listProject } from './project.js';
import type { Prompter } from './prompt.js';
import type { RepoProbe } from './repo.js';
import { LOCAL_HEAD_REF, scenarioText } from './scenario-file.js';
import { AUTO_BUDGET, resolveBudget } from './suite-budget.js';
import type { ToolPlan } from './types.js';
import type { BenchmarkLister } from './list-benchmarks.js';
import { nightlyWorkflow } from './nightly-workflow.js';
import { workflowFiles } from './workflow-file.js';

/** Where the scenario goes by default, relative to the project directory. */
export const DEFAULT_SCENARIO = 'benchmarks/duetkit.yml';
export const DEFAULT_ITERATIONS = 30;
/** Sized from the benchmarks found for a suite (src/suite/budget.ts), else 10 minutes. */
export const DEFAULT_BUDGET = AUTO_BUDGET;

export interface InitOptions extends ToolChoice {
  /** The project directory (absolute): a repository, or a directory inside one. */
  dir: string;
  /** The scenario file, relative to `dir` (or absolute). */
  scenario: string;
  /** Write the workflow(s) too. */
  workflow: boolean;
  /** The fork-safe pair instead of the single PR gate. */
  forkSafe: boolean;
  /**
   * Also the nightly variability workflow. Undefined: asked on a terminal (default no), else
   * no.
   */
  nightly?: boolean;
  /** `uses:` of the duetkit steps. */
  action: string;
  iterations: number;
  /** A duration, or `auto`: sized from the benchmarks found for a suite, else `10m`. */
  budget: string;
}

export interface InitDeps {
  repo: RepoProbe;
  /**
   * Counts a suite's benchmarks by running them once (`suite.list`); absent: the count from
   * the sources is kept.
   */
  list?: BenchmarkLister;
  /** Null when stdin is not a terminal: then nothing is asked. */
  prompter: Prompter | null;
}

/** A file init will write: absolute path, text, and whether something is there already. */
export interface PlannedFile {
  path: string;
  text: string;
  exists: boolean;
}

/** Everything decided before anything is written. */
export interface InitPlan {
  plan: ToolPlan;
  /** Other tools found and not chosen. */
  others: ToolPlan[];
  files: PlannedFile[];
  scenarioPath: string;
  /** The repository's top level, or null when `dir` is in none. */
  repoRoot: string | null;
  /** True when the repository has a commit: once the files are committed, `HEAD~1` exists. */
  hasCommit: boolean;
}

/**
 * Decides what `duetkit init` writes: finds the tool, builds the scenario (validated by the
 * scenario schema) and the workflow(s). Writes nothing; `writeInit` does.
 */
export async function planInit(options: InitOptions, deps: InitDeps): Promise<InitPlan> {
  const dir = await projectDir(options.dir);
  const repoRoot = await deps.repo
    .topLevel(dir)
    .then((top) => (top === null ? null : realpath(top)));
  const home = repoRoot ?? dir;
  const scenarioPath = path.resolve(dir, options.scenario);
  const scenarioInRepo = posix(path.relative(home, scenarioPath));
  if (scenarioInRepo.startsWith('../') || path.isAbsolute(scenarioInRepo)) {
    throw new UserError(
      `--scenario: got ${options.scenario}; expected a path inside ${home} (its versions are refs of that repository)`,
    );
  }
  const project = await listProject(dir);
  const chosen = await chooseTool(project, options, deps.prompter);
  const { others } = chosen;
  const plan = await withListedCount(
    withIterationsNote(chosen.plan, options.iterations),
    dir,
    deps.list,
  );
  const budget = resolveBudget(plan, options.budget);
  const dirInRepo = posix(path.relative(home, dir));
  const workflowOptions = {
    action: options.action,
    scenarioInRepo,
    dirInRepo,
    branch: (repoRoot === null ? null : await deps.repo.defaultBranch(dir)) ?? 'main',
    forkSafe: options.forkSafe,
    budget,
  };
  const nightly =
    options.workflow &&
    (options.nightly ??
      (deps.prompter !== null &&
        (await deps.prompter.choose(
          'Also a nightly workflow that tracks the runners’ noise and drift on main (docs/variability.md)?',
          ['no', 'yes'],
        )) === 1));
  const workflows = options.workflow
    ? [
        ...workflowFiles(plan, workflowOptions),
        ...(nightly ? [nightlyWorkflow(plan, workflowOptions)] : []),
      ]
    : [];
  let scenario: string;
  try {
    scenario = scenarioText(plan, {
      name: plan.tool,
      dirInRepo,
      runPath: scenarioInRepo,
      workflowPath: workflows[0]?.path ?? null,
      iterations: options.iterations,
      budget,
    });
  } catch (error) {
    // What the schema refuses here came from an option (--format, --budget...): exit 2.
    if (error instanceof ScenarioError) throw new UserError(error.message);
    throw error;
  }
  const files = await Promise.all(
    [
      { path: scenarioPath, text: scenario },
      ...workflows.map((w) => ({ path: path.join(home, w.path), text: w.text })),
    ].map(async (f) => ({ ...f, exists: (await stat(f.path).catch(() => null)) !== null })),
  );
  const hasCommit = repoRoot !== null && (await deps.repo.hasCommit(dir, LOCAL_HEAD_REF));
  return { plan, others, files, scenarioPath, repoRoot, hasCommit };
}

/**
 * Writes the planned files, creating their directories. Without `force`, refuses (exit 2)
 * when any of them exists, before writing any, and each file is created exclusively, so a
 * file that appeared meanwhile is not overwritten either.
 */
export async function writeInit(planned: InitPlan, options: { force: boolean }): Promise<void> {
  const existing = planned.files.filter((f) => f.exists);
  if (existing.length > 0 && !options.force) throw overwriteError(existing.map((f) => f.path));
  for (const file of planned.files) {
    await mkdir(path.dirname(file.path), { recursive: true });
    try {
      await writeFile(file.path, file.text, { flag: options.force ? 'w' : 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw overwriteError([file.path]);
      throw error;
    }
  }
}

/**
 * The plan with its suite's count from the tool itself (`list`), when it can run: loops and
 * helpers that make sub-benchmarks hide most of them from the sources (valyala/fastjson: ~36
 * found there, 100 run). When the run fails, the estimate stays and a note says why.
 */
async function withListedCount(
  plan: ToolPlan,
  dir: string,
  list: BenchmarkLister | undefined,
): Promise<ToolPlan> {
  if (list === undefined || plan.suite?.list === undefined) return plan;
  try {
    const listed = await list(plan, dir);
    if (listed === null) return plan;
    return {
      ...plan,
      suite: { ...plan.suite, benchmarks: listed.count, counted: listed.how, listed: true },
    };
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    return {
      ...plan,
      notes: [
        ...plan.notes,
        `${plan.tool}: the benchmarks could not be counted by running them once (${why}); the budget is sized from the ~${plan.suite.benchmarks} found in the sources, which misses sub-benchmarks made in loops`,
      ],
    };
  }
}

/** A suite takes its pairs from its looks: an `--iterations` other than the default is noted. */
function withIterationsNote(plan: ToolPlan, iterations: number): ToolPlan {
  if (plan.suite === undefined || plan.workload.perBenchmark !== true) return plan;
  if (iterations === DEFAULT_ITERATIONS) return plan;
  return {
    ...plan,
    notes: [
      ...plan.notes,
      `--iterations ${iterations} is not written: a suite takes its pairs from its looks (suite.firstLook, 20, times suite.growth, 3, up to suite.looks, 4: docs/suites.md); set suite.firstLook to change the first`,
    ],
  };
}

function overwriteError(paths: readonly string[]): UserError {
  const which = paths.join(', ');
  return new UserError(
    `not overwriting ${which}: ${paths.length > 1 ? 'they exist' : 'it exists'}; pass --force to replace ${paths.length > 1 ? 'them' : 'it'}`,
  );
}

async function projectDir(dir: string): Promise<string> {
  const info = await stat(dir).catch(() => null);
  if (info === null || !info.isDirectory()) {
    throw new UserError(`--dir: got ${dir}; expected an existing directory (the repository)`);
  }
  return realpath(dir);
}

function posix(relative: string): string {
  return relative.split(path.sep).join('/');
}
