import { UserError } from '../errors.js';
import { poolEstimates } from '../stats/pool.js';
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
  Remainder,
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
  /** What the located steps left of the change, and where it was searched for again. */
  remainder: Remainder | null;
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
  const result = await searchOnce(commits, duet, settings);
  if (result.status !== 'found' && result.status !== 'narrowed') return result;
  return withoutPhantoms(await searchRemainder(commits, duet, settings, result), settings);
}

/**
 * A located step whose confirmation shows no change (its interval within ±threshold) is no
 * step when the confirmed ones account for the whole change: a misread probe placed it (its
 * neighbours read in between, it read like bad). It goes to the notes, and the status is
 * decided again. Kept, as an unconfirmed step, while part of the change is unexplained.
 */
function withoutPhantoms(result: SearchResult, settings: SearchSettings): SearchResult {
  const t = settings.threshold;
  const confirmed = result.steps.filter((s) => s.confirmed);
  const left = rest(result.confirmation, confirmed);
  if (confirmed.length === 0 || left === null || beyondThreshold(left, t)) return result;
  const phantom = (s: StepRecord) =>
    s.confirmation !== null && !s.confirmed && withinThreshold(s.confirmation, t);
  const gone = result.steps.filter(phantom);
  if (gone.length === 0) return result;
  const steps = result.steps.filter((s) => !phantom(s));
  const notes = result.notes.filter(
    (x) => !gone.some((s) => x.startsWith(`the confirmation of ${short(s.culprit.id)} `)),
  );
  for (const s of gone) {
    const c = s.confirmation!;
    notes.push(
      `${short(s.culprit.id)} looked like a step from its probes, but its confirmation, ${signed(c.change)} [${signed(c.lower)}, ${signed(c.upper)}], shows none, and the confirmed steps account for the change: not a step`,
    );
  }
  const pinned = allPinned(steps);
  const spread = `the change is spread over ${result.steps.length} steps: each is listed with its size`;
  return {
    ...result,
    steps,
    status: pinned ? 'found' : 'narrowed',
    notes: notes
      .filter((x) => x !== spread || steps.length > 1)
      .map((x) =>
        x === spread
          ? `the change is spread over ${steps.length} steps: each is listed with its size`
          : x,
      ),
  };
}

async function searchOnce(
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

  /**
   * Duets with doubling effort until `settled` or the budget or effort runs out; what they say
   * together (`pooled`) decides, so the pairs of the first duets of a ladder are not thrown away.
   */
  const measure = async (
    base: string,
    head: string,
    settled: (c: ChangeInterval) => boolean,
    reserve: number,
  ): Promise<
    { records: DuetRecord[]; pooled: DuetRecord } | { unbuildable: string; reason: string }
  > => {
    const records: DuetRecord[] = [];
    let pooled: DuetRecord | null = null;
    for (let effort = 1; effort <= maxEffort; effort *= 2) {
      if (pooled !== null && duets >= settings.budget - reserve) break;
      const outcome = await duet(base, head, effort);
      duets++;
      if (outcome.kind === 'unbuildable')
        return { unbuildable: outcome.commit, reason: outcome.reason };
      seconds += outcome.result.seconds;
      records.push({ base, head, effort, ...outcome.result });
      pooled = pooledDuets(records);
      if (settled(pooled)) break;
    }
    return { records, pooled: pooled! };
  };

  // Precise enough to place probes: its interval within a quarter of the change either way.
  const first = await measure(
    good,
    bad,
    (c) => (beyondThreshold(c, t) && relativeHalfWidth(c) <= PRECISE) || withinThreshold(c, t),
    0,
  );
  if ('unbuildable' in first)
    throw new BisectError(
      `the ${first.unbuildable === good ? 'good' : 'bad'} commit ${first.unbuildable} did not build: ${first.reason}`,
    );
  const confirmation = first.pooled;
  const empty = { probes: [], steps: [], remainder: null, duets, measureSeconds: seconds };
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
    // In between, at a level no in-between neighbour shares: a step would be placed next to
    // it, so more pairs first. On a real range such probes of one level read from 0.29 to 0.52
    // of the change at 30 pairs, and each disagreement placed a phantom step that cost a
    // confirmation (BENCHMARKS.md, "Steps that must add up").
    const lone = (c: ChangeInterval): boolean => {
      const level: Level = { cls: 'in-between', position: place(c) };
      return [levels.get(a)!, levels.get(b)!].some(
        (x) => x.cls === 'in-between' && !sameLevel(x, level),
      );
    };
    const records = await measure(
      end === 'good' ? good : bad,
      id,
      (c) => {
        const cls = classify(place(c), zone);
        return cls !== 'unclear' && (cls !== 'in-between' || !lone(c));
      },
      1,
    );
    if ('unbuildable' in records) {
      probes.push({ commit: id, index: m, end, class: 'skipped', position: null, duets: [] });
      probes.at(-1)!.reason = records.reason;
      untestable.set(m, 'did not build');
      queue.push([a, b]);
      continue;
    }
    const position = place(records.pooled);
    const cls = classify(position, zone);
    probes.push({ commit: id, index: m, end, class: cls, position, duets: records.records });
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
      if (!('unbuildable' in confirm)) record = confirm.pooled;
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
  const pinned = allPinned(steps);
  return {
    status: pinned ? 'found' : 'narrowed',
    confirmation,
    probes,
    steps,
    remainder: null,
    duets,
    measureSeconds: seconds,
    notes,
  };
}

/**
 * The steps located must add up to the change good → bad. When they do not — the rest is
 * beyond the threshold, with every interval's uncertainty counted — a probe was misread and
 * sent the search past a step (a probe at 92% of the change where the truth was 50%: the
 * second half was never searched). The segments the search took for one level (before the
 * first step, between two, after the last) are then bisected again, the longest first, each
 * with its own first duet (its ends must differ: noise is not bisected), until the steps
 * account for the change or the budget is spent. Costs nothing when they add up.
 */
async function searchRemainder(
  commits: readonly RangeCommit[],
  duet: RunDuet,
  settings: SearchSettings,
  result: SearchResult,
): Promise<SearchResult> {
  const t = settings.threshold;
  const unexplained = (): ChangeInterval | null => rest(result.confirmation, result.steps);
  let left = unexplained();
  if (left === null || !beyondThreshold(left, t)) return result;
  const remainder: Remainder = { change: left, segments: [] };
  const whole = Math.log1p(result.confirmation.change);
  const index = (id: string) => commits.findIndex((c) => c.id === id);
  const segments: [number, number][] = [];
  let from = 0;
  for (const s of [...result.steps].sort((x, y) => index(x.culprit.id) - index(y.culprit.id))) {
    segments.push([from, index(s.before)]);
    from = index(s.culprit.id);
  }
  segments.push([from, commits.length - 1]);
  const open = segments.filter(([a, b]) => b > a).sort((x, y) => y[1] - y[0] - (x[1] - x[0]));
  result.notes.push(
    `the steps located account for ${signed(Math.expm1(whole - Math.log1p(left.change)))} of the ${signed(result.confirmation.change)} change; the rest, ${signed(left.change)} [${signed(left.lower)}, ${signed(left.upper)}], was searched for again`,
  );
  for (const [a, b] of open) {
    if (left === null || !beyondThreshold(left, t) || result.duets >= settings.budget - 1) break;
    const sub = await searchRange(commits.slice(a, b + 1), duet, {
      ...settings,
      budget: settings.budget - result.duets,
    });
    result.duets += sub.duets;
    result.measureSeconds += sub.measureSeconds;
    remainder.segments.push({
      from: commits[a]!.id,
      to: commits[b]!.id,
      status: sub.status,
      confirmation: sub.confirmation,
    });
    const segment = { from: commits[a]!.id, to: commits[b]!.id };
    result.probes.push(...sub.probes.map((p) => ({ ...p, index: p.index + a, segment })));
    // a step's share of the segment's change, restated as its share of the whole change
    const scale = Math.log1p(sub.confirmation.change) / whole;
    result.steps.push(...sub.steps.map((s) => ({ ...s, share: s.share * scale })));
    result.steps.sort((x, y) => index(x.culprit.id) - index(y.culprit.id));
    result.notes.push(
      ...sub.notes.map((x) => `${short(commits[a]!.id)}..${short(commits[b]!.id)}: ${x}`),
    );
    left = unexplained();
  }
  if (left !== null && beyondThreshold(left, t))
    result.notes.push(
      `the steps located still leave ${signed(left.change)} [${signed(left.lower)}, ${signed(left.upper)}] of the change unexplained: a step may be missing (raise --budget)`,
    );
  const pinned = allPinned(result.steps);
  result.status = pinned && (left === null || !beyondThreshold(left, t)) ? 'found' : 'narrowed';
  return { ...result, remainder };
}

/**
 * What the steps' confirmations leave of the whole change, in log space, the intervals'
 * half-widths added in quadrature (independent duets at one level); null when a step has no
 * confirmation to count.
 */
export function rest(whole: ChangeInterval, steps: readonly StepRecord[]): ChangeInterval | null {
  const half = (c: ChangeInterval) => (Math.log1p(c.upper) - Math.log1p(c.lower)) / 2;
  const parts = steps.map((s) => s.confirmation);
  if (parts.some((c) => c === null)) return null;
  const known = parts as DuetRecord[];
  const r = known.reduce((x, c) => x - Math.log1p(c.change), Math.log1p(whole.change));
  const h = Math.hypot(half(whole), ...known.map(half));
  return {
    change: Math.expm1(r),
    lower: Math.expm1(r - h),
    upper: Math.expm1(r + h),
    level: whole.level,
  };
}

/** Every step pinned to one commit and confirmed beyond the threshold: the search `found`. */
function allPinned(steps: readonly StepRecord[]): boolean {
  return steps.every((s) => s.unresolved === null && s.confirmed);
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
const signed = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(2)}%`;

/**
 * The duets of one ladder (the same base and head, more pairs each time) as one record: their
 * changes pooled in log space by inverse variance (`poolEstimates`), pairs, effort and seconds
 * added. A single duet is returned as it is.
 */
export function pooledDuets(records: readonly DuetRecord[]): DuetRecord {
  const last = records.at(-1)!;
  // a zero-width interval (every pair alike) gives no variance to weigh by: the last decides
  if (records.length === 1 || records.some((r) => !(r.upper > r.lower))) return last;
  const p = poolEstimates(
    records.map((r) => ({
      estimate: Math.log1p(r.change),
      lower: Math.log1p(r.lower),
      upper: Math.log1p(r.upper),
      level: r.level,
    })),
    last.level,
  );
  const sum = (f: (r: DuetRecord) => number) => records.reduce((x, r) => x + f(r), 0);
  return {
    base: last.base,
    head: last.head,
    change: Math.expm1(p.estimate),
    lower: Math.expm1(p.lower),
    upper: Math.expm1(p.upper),
    level: p.level,
    pairs: sum((r) => r.pairs),
    effort: sum((r) => r.effort),
    seconds: sum((r) => r.seconds),
  };
}
