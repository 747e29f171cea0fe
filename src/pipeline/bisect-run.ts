import { createCommitRange, type ListedCommit } from '../git/commit-range.js';
import { createGit } from '../git/git.js';
import { createWorktreeSet } from '../git/worktrees.js';
import type { Scenario } from '../scenario/schema.js';
import { createCheckouts } from './bisect-checkouts.js';
import { createDuetPort } from './bisect-duet.js';
import { BISECT_SCHEMA_VERSION, type BisectReport, type RangeCommit } from '../contracts/bisect.js';
import { BisectError, expectedDuets, searchRange, type RunDuet } from '../bisect/search.js';

export interface BisectOptions {
  /** The git repository (any directory inside it). */
  repo: string;
  good: string;
  bad: string;
  /** The workload and its settings (from `-- CMD` or a scenario file); its first version's setup, env and dir apply to every commit. */
  scenario: Scenario;
  benchmark: string | null;
  threshold: number;
  /** Most duets in all; null: twice about log2(N) + 2, and as much again for each merge searched inside. */
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
  /** Seam for tests: the duets (default: real ones through the run pipeline). */
  duet?: RunDuet;
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
  let budget = options.budget ?? 2 * expectedDuets(n);
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
  const duet =
    options.duet ??
    createDuetPort({
      scenario: {
        ...options.scenario,
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
          `duet: ${head.slice(0, 10)} ${subject.get(head) ?? ''} against ${base.slice(0, 10)}${effort > 1 ? ` (${effort}x pairs)` : ''}`,
        ),
    });
  try {
    const result = await searchRange(commits, duet, { threshold: options.threshold, budget });
    let duets = result.duets;
    let measureSeconds = result.measureSeconds;
    if (!options.firstParent) {
      for (const step of result.steps) {
        if (!step.culprit.merge || !step.confirmed) continue;
        if (options.budget !== null && duets >= budget) continue;
        const merge = await range.show(step.culprit.id);
        const branch = await range.list(merge.parents[0]!, merge.parents[1]!, true);
        const inner = [await range.show(merge.parents[0]!), ...branch].map(asRangeCommit);
        for (const c of inner) subject.set(c.id, c.subject);
        // the default budget grows by the branch's own; one given bounds the whole bisection
        const own = 2 * expectedDuets(inner.length - 1);
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
      confirmation: result.confirmation,
      commits: commits.slice(1),
      probes: result.probes,
      steps: result.steps,
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

function asRangeCommit(c: ListedCommit): RangeCommit {
  return {
    id: c.id,
    subject: c.subject,
    pullRequest: c.pullRequest,
    merge: c.parents.length > 1,
  };
}
