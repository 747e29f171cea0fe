import { UserError } from '../errors.js';
import {
  beyondThreshold,
  classify,
  positionOf,
  relativeHalfWidth,
  withinThreshold,
  zoneOf,
  type Position,
} from './classify.js';
import type {
  BisectStatus,
  ChangeInterval,
  DuetRecord,
  ProbeClass,
  ProbeRecord,
  RangeCommit,
  StepRecord,
} from '../contracts/bisect.js';

/** A duet's outcome: measured, or one of its two commits did not build. */
export type DuetOutcome =
  | { kind: 'measured'; result: ChangeInterval & { pairs: number; seconds: number } }
  | { kind: 'unbuildable'; commit: string; reason: string };

/**
 * Runs a duet of `base` against `head` (change = head/base − 1) with `effort` times the
 * default number of pairs. Building a commit is the port's business (once per commit).
 */
export type RunDuet = (base: string, head: string, effort: number) => Promise<DuetOutcome>;

export interface SearchSettings {
  /** Practical threshold (fraction > 0): good and bad must differ beyond it. */
  threshold: number;
  /** Most duets in all (confirmations and more pairs included). */
  budget: number;
  /** Largest effort an unclear duet is repeated with (doubling from 1). Default 4. */
  maxEffort?: number;
  /**
   * Stop `inconclusive` when good against bad changed beyond the threshold but stayed too
   * imprecise to search on (its interval wider than half the change either way, after the
   * repeats), instead of searching with it: for a caller that has another design to try
   * (`--mode auto`). Default false: search with what there is.
   */
  requirePrecision?: boolean;
}

/** Good against bad precise enough to stop repeating it: within a quarter of its change. */
const PRECISE = 0.25;
/**
 * Too imprecise to search on (`requirePrecision`): wider than half the change either way. RMIT
 * searches that started from ±27–45% of the change found the exact 5% commit on a real range;
 * duet searches from ±90% named none (BENCHMARKS.md).
 */
const TOO_IMPRECISE = 0.5;

export interface SearchResult {
  status: BisectStatus;
  confirmation: DuetRecord;
  probes: ProbeRecord[];
  steps: StepRecord[];
  duets: number;
  measureSeconds: number;
  notes: string[];
}

export class BisectError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'BisectError';
  }
}

/** About log2(N) + 2 duets: a confirmation, a binary search over N commits, a confirmation. */
export function expectedDuets(commits: number): number {
  return Math.ceil(Math.log2(Math.max(commits, 1))) + 2;
}

interface Level {
  cls: Exclude<ProbeClass, 'unclear'>;
  position: Position;
}

/**
 * Bisection with duets over `commits` (oldest first: the good commit, the candidates, the bad
 * commit last). First a duet of good against bad: unless it calls a change beyond the
 * threshold, nothing is searched (noise is never bisected). Then each probe is a duet of a
 * candidate against the nearer end, classified like good, like bad or in between; an unclear
 * one is repeated with twice the pairs (up to `maxEffort`), and if it stays unclear it is
 * treated like a commit that does not build (`git bisect skip`): another commit of the
 * segment is probed. A segment whose ends differ is split until its ends are adjacent: with
 * in-between probes, both halves are searched, so several steps are each located. Each step
 * ends with a confirmation duet of the commit before it against it. Stops searching when one
 * duet is left of the budget (kept for a confirmation); what was not pinned is reported as a
 * range. The cost is about log2(N) + 2 duets per step.
 */
export async function searchRange(
  commits: readonly RangeCommit[],
  duet: RunDuet,
  settings: SearchSettings,
): Promise<SearchResult> {
  if (commits.length < 2) throw new BisectError('bisect needs a good and a bad commit');
  const maxEffort = settings.maxEffort ?? 4;
  const t = settings.threshold;
  const n = commits.length - 1;
  const good = commits[0]!.id;
  const bad = commits[n]!.id;
  let duets = 0;
  let seconds = 0;
  const notes: string[] = [];

  /** Duets with doubling effort until `settled` or the budget or effort runs out. */
  const measure = async (
    base: string,
    head: string,
    settled: (c: ChangeInterval) => boolean,
    reserve: number,
  ): Promise<DuetRecord[] | { unbuildable: string; reason: string }> => {
    const records: DuetRecord[] = [];
    for (let effort = 1; effort <= maxEffort; effort *= 2) {
      if (records.length > 0 && duets >= settings.budget - reserve) break;
      const outcome = await duet(base, head, effort);
      duets++;
      if (outcome.kind === 'unbuildable')
        return { unbuildable: outcome.commit, reason: outcome.reason };
      seconds += outcome.result.seconds;
      records.push({ base, head, effort, ...outcome.result });
      if (settled(outcome.result)) break;
    }
    return records;
  };

  // Precise enough to place probes: its interval within a quarter of the change either way.
  const first = await measure(
    good,
    bad,
    (c) => (beyondThreshold(c, t) && relativeHalfWidth(c) <= PRECISE) || withinThreshold(c, t),
    0,
  );
  if (!Array.isArray(first))
    throw new BisectError(
      `the ${first.unbuildable === good ? 'good' : 'bad'} commit ${first.unbuildable} did not build: ${first.reason}`,
    );
  const confirmation = first.at(-1)!;
  const empty = { probes: [], steps: [], duets, measureSeconds: seconds };
  if (!beyondThreshold(confirmation, t)) {
    const within = withinThreshold(confirmation, t);
    notes.push(
      within
        ? `good and bad do not differ beyond ±${pct(t)}: nothing to bisect`
        : `good against bad stayed inconclusive (the interval crosses ±${pct(t)}) within the budget: nothing bisected; raise --budget or the pairs`,
    );
    return { status: within ? 'no-change' : 'inconclusive', confirmation, ...empty, notes };
  }
  if (settings.requirePrecision === true && relativeHalfWidth(confirmation) > TOO_IMPRECISE) {
    notes.push(
      `good against bad changed beyond ±${pct(t)}, but its interval stayed ±${Math.round(relativeHalfWidth(confirmation) * 100)}% of the change: too imprecise to search on`,
    );
    return { status: 'inconclusive', confirmation, ...empty, notes };
  }
  const zone = zoneOf(confirmation, t);
  const levels = new Map<number, Level>([
    [0, { cls: 'like-good', position: { fraction: 0, lower: 0, upper: 0 } }],
    [n, { cls: 'like-bad', position: { fraction: 1, lower: 1, upper: 1 } }],
  ]);
  const untestable = new Map<number, string>();
  const probes: ProbeRecord[] = [];
  const located: { a: number; b: number; why: string | null; spent: boolean }[] = [];
  const queue: [number, number][] = [[0, n]];
  while (queue.length > 0) {
    queue.sort((x, y) => x[0] - y[0]);
    const [a, b] = queue.shift()!;
    const open = range(a + 1, b).filter((i) => !untestable.has(i));
    if (open.length === 0) {
      const why = range(a + 1, b)
        .map((i) => `${short(commits[i]!.id)} ${untestable.get(i)}`)
        .join('; ');
      located.push({ a, b, why: b === a + 1 ? null : why, spent: false });
      continue;
    }
    if (duets >= settings.budget - 1) {
      located.push({
        a,
        b,
        why: 'the budget was spent before the search got here',
        spent: true,
      });
      continue;
    }
    const mid = (a + b) / 2;
    const m = open.reduce((x, y) => (Math.abs(y - mid) < Math.abs(x - mid) ? y : x));
    const end = m <= n / 2 ? 'good' : 'bad';
    const id = commits[m]!.id;
    const place = (c: ChangeInterval) => positionOf(c, end, confirmation);
    const records = await measure(
      end === 'good' ? good : bad,
      id,
      (c) => classify(place(c), zone) !== 'unclear',
      1,
    );
    if (!Array.isArray(records)) {
      probes.push({ commit: id, index: m, end, class: 'skipped', position: null, duets: [] });
      probes.at(-1)!.reason = records.reason;
      untestable.set(m, 'did not build');
      queue.push([a, b]);
      continue;
    }
    const position = place(records.at(-1)!);
    const cls = classify(position, zone);
    probes.push({ commit: id, index: m, end, class: cls, position, duets: records });
    if (cls === 'unclear') {
      untestable.set(m, 'stayed unclear');
      queue.push([a, b]);
      continue;
    }
    levels.set(m, { cls, position });
    if (!sameLevel(levels.get(a)!, levels.get(m)!)) queue.push([a, m]);
    if (!sameLevel(levels.get(m)!, levels.get(b)!)) queue.push([m, b]);
  }
  const steps: StepRecord[] = [];
  for (const { a, b, why, spent } of located.sort((x, y) => x.a - y.a)) {
    // culprit^ against culprit; across commits that could not be tested, the last tested one
    const before = untestable.has(b - 1) ? a : b - 1;
    let record: DuetRecord | null = null;
    if (!spent && duets < settings.budget) {
      const confirm = await measure(
        commits[before]!.id,
        commits[b]!.id,
        (c) => beyondThreshold(c, t) || withinThreshold(c, t),
        0,
      );
      if (Array.isArray(confirm)) record = confirm.at(-1)!;
    }
    steps.push({
      before: commits[before]!.id,
      culprit: commits[b]!,
      alsoPossible: range(a + 1, b).map((i) => commits[i]!.id),
      unresolved: why,
      confirmation: record,
      confirmed: record !== null && beyondThreshold(record, t),
      share: levels.get(b)!.position.fraction - levels.get(a)!.position.fraction,
    });
  }
  if (steps.length > 1)
    notes.push(`the change is spread over ${steps.length} steps: each is listed with its size`);
  for (const s of steps) {
    if (s.confirmation === null) notes.push(`no budget was left to confirm ${short(s.culprit.id)}`);
    else if (!s.confirmed)
      notes.push(
        `the confirmation of ${short(s.culprit.id)} did not call a change beyond ±${pct(t)}: a step smaller than the threshold, or a change spread over commits`,
      );
  }
  const pinned = steps.every((s) => s.unresolved === null && s.confirmed);
  return {
    status: pinned ? 'found' : 'narrowed',
    confirmation,
    probes,
    steps,
    duets,
    measureSeconds: seconds,
    notes,
  };
}

/** Two probed commits are at the same level: the same class, and for in-between, overlapping. */
function sameLevel(x: Level, y: Level): boolean {
  if (x.cls !== y.cls) return false;
  if (x.cls !== 'in-between') return true;
  return x.position.lower <= y.position.upper && y.position.lower <= x.position.upper;
}

/** Integers from `from` (inclusive) to `to` (exclusive). */
function range(from: number, to: number): number[] {
  return Array.from({ length: Math.max(0, to - from) }, (_, i) => from + i);
}

const pct = (x: number) => `${+(x * 100).toFixed(2)}%`;
const short = (id: string) => id.slice(0, 10);
