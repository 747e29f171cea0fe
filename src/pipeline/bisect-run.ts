import { createCommitRange, type ListedCommit } from '../git/commit-range.js';
import { createGit } from '../git/git.js';
import { createWorktreeSet } from '../git/worktrees.js';
import type { Scenario } from '../scenario/schema.js';
import { createCheckouts } from './bisect-checkouts.js';
import { createDuetPort } from './bisect-duet.js';
import { BISECT_SCHEMA_VERSION, type BisectReport, type RangeCommit } from '../contracts/bisect.js';
import {
  BisectError,
  expectedDuets,
  searchRange,
  type DuetOutcome,
  type RunDuet,
} from '../bisect/search.js';
import { chooseMode, worthSwitching } from '../bisect/mode.js';
import type { BisectMode, ModeChoice } from '../contracts/bisect.js';

/** The default budget, in multiples of about log2(N) + 2 duets. */
const BUDGET_FACTOR = 3;

export interface BisectOptions {
  /** The git repository (any directory inside it). */
  repo: string;
  good: string;
  bad: string;
  /** The workload and its settings (from `-- CMD` or a scenario file); its first version's setup, env and dir apply to every commit. */
  scenario: Scenario;
  benchmark: string | null;
  threshold: number;
  /** Most duets in all; null: three times about log2(N) + 2 (+ 2 to choose the mode), and as much again for each merge searched inside. */
  budget: number | null;
  /** Along first parents (default), or also inside a merge the search names. */
  firstParent: boolean;
  env: NodeJS.ProcessEnv;
  signal: AbortSignal;
  seed?: number;
  onNotice?: (message: string) => void;
  /** One line per duet as it starts. */
  log?: (line: string) => void;
  worktreeParent?: string;
  /**
   * `--mode auto`: before the search, good against bad once as a duet and once in RMIT
   * rounds; the design with the more precise interval per second probes (bisect/mode.ts).
   * Otherwise the scenario's mode probes.
   */
  chooseMode?: boolean;
  /** Seam for tests: the duets of each design (default: real ones through the run pipeline). */
  duet?: RunDuet | Record<BisectMode, RunDuet>;
}

/**
 * `duetkit bisect`: the range good..bad listed, every commit checked out and built once on
 * demand, the search run with real duets, and the report. Worktrees are removed whatever
 * happens.
 */
export async function runBisect(options: BisectOptions): Promise<BisectReport> {
  const range = createCommitRange(options.repo);
  const good = await range.resolve(options.good);
  const bad = await range.resolve(options.bad);
  if (good === bad) throw new BisectError(`--good and --bad are the same commit ${good}`);
  if (!(await range.isAncestor(good, bad)))
    throw new BisectError(
      `--good ${options.good} (${good.slice(0, 10)}) is not an ancestor of --bad ${options.bad} (${bad.slice(0, 10)}); expected an older commit of the same history`,
    );
  const listed = await range.list(good, bad, true);
  const commits = [await range.show(good), ...listed].map(asRangeCommit);
  const n = commits.length - 1;
  // the default: three times about log2(N) + 2 (a cap: a clear search stops well below it; on a
  // noisy machine unclear probes repeat, and twice left RMIT bisections of a 5% step short,
  // BENCHMARKS.md), and the two measurements that choose the mode
  let budget =
    options.budget ?? BUDGET_FACTOR * expectedDuets(n) + (options.chooseMode === true ? 2 : 0);
  // bisectScenario allows only these two; a caller's own scenario is held to the same
  const given = options.scenario.mode;
  if (given !== 'duet' && given !== 'rmit')
    throw new BisectError(`mode ${given} cannot bisect; accepted: duet, rmit (paired probes)`);
  const version = options.scenario.versions[0]!;
  const worktrees = createWorktreeSet(createGit(options.repo), options.worktreeParent);
  const checkouts = createCheckouts({
    worktrees,
    ...(version.setup === undefined ? {} : { setup: version.setup }),
    ...(version.dir === undefined ? {} : { dir: version.dir }),
    env: { ...options.env, ...version.env },
    signal: options.signal,
  });
  const subject = new Map(commits.map((c) => [c.id, c.subject]));
  const portOf = (mode: BisectMode): RunDuet => {
    if (typeof options.duet === 'function') return options.duet;
    if (options.duet !== undefined) return options.duet[mode];
    return createDuetPort({
      scenario: {
        ...options.scenario,
        mode,
        analysis: { ...options.scenario.analysis, threshold: options.threshold },
      },
      benchmark: options.benchmark,
      checkout: checkouts.get,
      run: {
        signal: options.signal,
        env: options.env,
        ...(options.seed === undefined ? {} : { seed: options.seed }),
        ...(options.onNotice === undefined ? {} : { onNotice: options.onNotice }),
      },
      onDuet: (base, head, effort) =>
        options.log?.(
          `${mode === 'rmit' ? 'rmit' : 'duet'}: ${head.slice(0, 10)} ${subject.get(head) ?? ''} against ${base.slice(0, 10)}${effort > 1 ? ` (${effort}x pairs)` : ''}`,
        ),
    });
  };
  try {
    let mode: BisectMode = given;
    let modeChoice: ModeChoice | null = null;
    let duets = 0;
    let measureSeconds = 0;
    if (options.chooseMode === true) {
      const trials: Partial<ModeChoice['trials']> = {};
      for (const m of ['duet', 'rmit'] as const) {
        const outcome: DuetOutcome = await portOf(m)(good, bad, 1);
        duets++;
        // a commit that does not build: the search says so with its own first duet
        if (outcome.kind === 'unbuildable') break;
        measureSeconds += outcome.result.seconds;
        trials[m] = outcome.result;
      }
      if (trials.duet !== undefined && trials.rmit !== undefined) {
        const chosen = chooseMode(trials as ModeChoice['trials']);
        modeChoice = { trials: trials as ModeChoice['trials'], chosen, switched: false };
        mode = chosen;
        options.log?.(`mode: ${chosen} (${choiceText(modeChoice)})`);
      }
    }
    let duet = portOf(mode);
    let result = await searchRange(commits, duet, {
      threshold: options.threshold,
      budget: Math.max(budget - duets, 1),
      // with another design worth a try, an imprecise good-against-bad is no ground to search on
      requirePrecision: modeChoice !== null && worthSwitching(modeChoice),
    });
    duets += result.duets;
    measureSeconds += result.measureSeconds;
    // One measurement of each design is a noisy guide (a duet's interval here ranged from ±1%
    // to ±22% at the same pairs): when the chosen design cannot settle good against bad, or
    // only too imprecisely to search on, and the choice was close, the other one tries, once,
    // with what is left of the budget (and searches with what it gets).
    if (
      modeChoice !== null &&
      result.status === 'inconclusive' &&
      worthSwitching(modeChoice) &&
      duets < budget - 1
    ) {
      const first = result.confirmation;
      const unsettled = `the ${mode === 'rmit' ? 'RMIT rounds' : 'duets'} could not pin good against bad (${signed(first.change)} [${signed(first.lower)}, ${signed(first.upper)}] at ${first.pairs} pairs)`;
      mode = mode === 'duet' ? 'rmit' : 'duet';
      modeChoice.switched = true;
      options.log?.(
        `mode: ${mode} (the ${modeChoice.chosen} probes could not settle good against bad)`,
      );
      duet = portOf(mode);
      result = await searchRange(commits, duet, {
        threshold: options.threshold,
        budget: budget - duets,
      });
      duets += result.duets;
      measureSeconds += result.measureSeconds;
      result.notes.unshift(`${unsettled}; the other design searched`);
    }
    if (!options.firstParent) {
      for (const step of result.steps) {
        if (!step.culprit.merge || !step.confirmed) continue;
        if (options.budget !== null && duets >= budget) continue;
        const merge = await range.show(step.culprit.id);
        const branch = await range.list(merge.parents[0]!, merge.parents[1]!, true);
        const inner = [await range.show(merge.parents[0]!), ...branch].map(asRangeCommit);
        for (const c of inner) subject.set(c.id, c.subject);
        // the default budget grows by the branch's own; one given bounds the whole bisection
        const own = BUDGET_FACTOR * expectedDuets(inner.length - 1);
        if (options.budget === null) budget += own;
        const sub = await searchRange(inner, duet, {
          threshold: options.threshold,
          budget: budget - duets,
        });
        duets += sub.duets;
        measureSeconds += sub.measureSeconds;
        step.insideMerge = {
          status: sub.status,
          confirmation: sub.confirmation,
          probes: sub.probes,
          steps: sub.steps,
          notes: sub.notes,
        };
      }
    }
    return {
      schemaVersion: BISECT_SCHEMA_VERSION,
      good,
      bad,
      benchmark: options.benchmark,
      firstParent: options.firstParent,
      threshold: options.threshold,
      status: result.status,
      mode,
      modeChoice,
      confirmation: result.confirmation,
      commits: commits.slice(1),
      probes: result.probes,
      steps: result.steps,
      remainder: result.remainder,
      duets,
      budget,
      expectedDuets: expectedDuets(n),
      measureSeconds,
      buildSeconds: checkouts.seconds(),
      notes: result.notes,
    };
  } finally {
    await worktrees.dispose();
  }
}

const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;

/** "duet ±3.1% in 2.0 s, rmit ±0.9% in 3.9 s": each design's half-width and time. */
function choiceText(choice: ModeChoice): string {
  return (['duet', 'rmit'] as const)
    .map((m) => {
      const t = choice.trials[m];
      return `${m} ±${(((t.upper - t.lower) / 2) * 100).toFixed(1)}% in ${t.seconds.toFixed(1)} s`;
    })
    .join(', ');
}

function asRangeCommit(c: ListedCommit): RangeCommit {
  return {
    id: c.id,
    subject: c.subject,
    pullRequest: c.pullRequest,
    merge: c.parents.length > 1,
  };
}
