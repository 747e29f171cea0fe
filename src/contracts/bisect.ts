/**
 * The bisect report (`duetkit bisect --json`, the action's `bisect.json`): what the search in
 * `pipeline/bisect-run.ts` hands to the renderers of `bisect/render.ts` and to the alert.
 */

/** A relative change (head/base − 1) with its interval, as a duet's comparison gives it. */
export interface ChangeInterval {
  change: number;
  lower: number;
  upper: number;
  level: number;
}

export type ProbeClass = 'like-good' | 'like-bad' | 'in-between' | 'unclear';

/** Version of the bisect report JSON (`duetkit bisect --json`). */
export const BISECT_SCHEMA_VERSION = 1;

/** A commit of the searched range. */
export interface RangeCommit {
  id: string;
  subject: string;
  /** From the subject ("Merge pull request #12", "... (#12)"); null when it names none. */
  pullRequest: number | null;
  /** Whether it has more than one parent. */
  merge: boolean;
}

/** One duet: base and head commits, its change (head/base − 1) with its interval. */
export interface DuetRecord extends ChangeInterval {
  base: string;
  head: string;
  /** Pairs measured, and how many times the default the duet was asked for (1, 2, 4...). */
  pairs: number;
  effort: number;
  /** Wall time of the duet, build excluded. */
  seconds: number;
}

/** A candidate and what its duet(s) against an end said; `skipped`: it did not build. */
export interface ProbeRecord {
  commit: string;
  /** Position in the searched list (0 is good). */
  index: number;
  end: 'good' | 'bad';
  class: ProbeClass | 'skipped';
  /** The candidate's place between good (0) and bad (1), with its interval; null when skipped. */
  position: { fraction: number; lower: number; upper: number } | null;
  /**
   * Every duet of it (more pairs after an unclear one); they decide together, their changes
   * pooled by inverse variance (`pooledDuets` in bisect/search.ts).
   */
  duets: DuetRecord[];
  /** Why it was skipped (the build's error). */
  reason?: string;
  /**
   * Set when the probe belongs to a search again of part of the range (the steps first
   * located did not account for the whole change): `end` and `position` then refer to this
   * segment's ends and change.
   */
  segment?: { from: string; to: string };
}

/** A step located by the search, with the confirmation duet of its parent against it. */
export interface StepRecord {
  /** The last commit like the level before and the commit that brings the change. */
  before: string;
  culprit: RangeCommit;
  /**
   * Further commits the step may lie in, when the search could not tell (commits that did not
   * build, probes that stayed unclear, or the budget ran out), oldest first; empty when the
   * culprit is exact.
   */
  alsoPossible: string[];
  /** Why the step is not pinned to one commit; null when it is. */
  unresolved: string | null;
  /** The confirmation duet `before` against `culprit` (null: the budget was spent first). */
  confirmation: DuetRecord | null;
  /** Whether the confirmation called the change beyond the threshold. */
  confirmed: boolean;
  /** The step as a fraction of the whole change (from the probes on its two sides). */
  share: number;
  /**
   * With `firstParent: false`, when the culprit is a merge: the search along the merged
   * branch (its parent before the merge against the branch's commits).
   */
  insideMerge?: {
    status: BisectStatus;
    confirmation: DuetRecord;
    probes: ProbeRecord[];
    steps: StepRecord[];
    notes: string[];
  };
}

/** How a probe runs its two commits: at once on two CPUs, or one at a time (RMIT rounds). */
export type BisectMode = 'duet' | 'rmit';

/** One design's measurement of good against bad, for the choice of `--mode auto`. */
export interface ModeTrial extends ChangeInterval {
  pairs: number;
  seconds: number;
}

/**
 * `--mode auto`: good against bad measured once in each design before the search; the one
 * with the smaller half-width × √seconds probes (bisect/mode.ts). These two measurements only
 * choose: the search measures good against bad again with the design chosen, so the choice
 * does not flatter its own confirmation.
 */
export interface ModeChoice {
  trials: Record<BisectMode, ModeTrial>;
  chosen: BisectMode;
  /**
   * The chosen design could not settle good against bad within its repeats (`inconclusive`),
   * so the other one searched, once, with the budget left: `mode` is then the other. Two
   * designs each asked whether good and bad differ: at most twice the first duet's error rate
   * of calling a change that is not there (docs/bisect.md).
   */
  switched: boolean;
}

/**
 * The part of the change good → bad the located steps did not account for (beyond the
 * threshold), and the segments searched again for it, each with its first duet and outcome.
 */
export interface Remainder {
  change: ChangeInterval;
  segments: { from: string; to: string; status: BisectStatus; confirmation: DuetRecord }[];
}

export type BisectStatus =
  /** good and bad do not differ beyond the threshold: nothing was bisected. */
  | 'no-change'
  /** the first duet could not settle whether good and bad differ, within the budget. */
  | 'inconclusive'
  /** every step pinned to one commit. */
  | 'found'
  /** at least one step left among several commits (see `unresolved`). */
  | 'narrowed';

export interface BisectReport {
  schemaVersion: typeof BISECT_SCHEMA_VERSION;
  good: string;
  bad: string;
  benchmark: string | null;
  firstParent: boolean;
  threshold: number;
  status: BisectStatus;
  /** The design the probes ran in (absent in reports made before it was recorded). */
  mode?: BisectMode;
  /** How it was chosen, with `--mode auto`; null when it was given. */
  modeChoice?: ModeChoice | null;
  /**
   * Good against bad: its duets (more pairs if it needed them) pooled into one record, their
   * pairs, effort and seconds added.
   */
  confirmation: DuetRecord;
  /** Commits after good up to bad, oldest first (bad last). */
  commits: RangeCommit[];
  probes: ProbeRecord[];
  steps: StepRecord[];
  /** When the steps first located left part of the change unexplained: where it was sought. */
  remainder?: Remainder | null;
  /** Duets run (the two that choose the mode included), the budget, and about log2(N) + 2 for comparison. */
  duets: number;
  budget: number;
  expectedDuets: number;
  /** Wall time of all duets, and of the builds. */
  measureSeconds: number;
  buildSeconds: number;
  notes: string[];
}
