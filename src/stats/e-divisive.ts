import { checkSample } from './ranks.js';
import { createRng, type Rng } from './rng.js';

/** How q̂ is formed: distance exponent, where the second side ends, which estimator. */
export interface SplitShape {
  power: number;
  span: Span;
  estimator: Estimator;
}

/** The split of a segment that maximises the divergence q̂ (Matteson & James 2014). */
export interface SplitCandidate {
  /** Index of the first value after the change (τ), in the whole series. */
  index: number;
  /** Scaled sample divergence q̂(τ, κ) of the two sides, maximised over τ and κ. */
  qhat: number;
  /** End (exclusive) of the second side at the maximum (κ). */
  end: number;
}

export interface EDivisiveOptions {
  /** Significance level of each permutation test. Default 0.01. */
  alpha?: number;
  /** Permutations per test. Default 499. */
  permutations?: number;
  /** Seed of the permutations. Default 1. */
  seed?: number;
  /** Exponent of the distance |x − y|^power, in (0, 2). Default 1 (energy distance). */
  power?: number;
  /** Most change points to look for. Default no limit. */
  maxChangePoints?: number;
  /**
   * Where the second side of a split may end: `segment` (default), at the end of the
   * segment, as MongoDB's signal-processing-algorithms does; `any`, anywhere after the split
   * (κ maximised too), as Matteson & James and Apache Otava do. `segment` scans n splits
   * instead of n²/2, which leaves more power for a single step (BENCHMARKS.md).
   */
  span?: Span;
  /**
   * The within-side means of distances: `v`, over all n² ordered pairs (zeros included), as
   * signal-processing-algorithms; `u`, over the n(n−1) distinct pairs, as Matteson & James
   * and Otava. Default `v` with span `segment`, `u` with `any`.
   */
  estimator?: Estimator;
}

export type Span = 'segment' | 'any';
export type Estimator = 'u' | 'v';

export interface TestedSplit extends SplitCandidate {
  /**
   * Permutation p-value (b + 1)/(B + 1) with b the permutations whose largest q̂ reached the
   * candidate's, over the B permutations drawn (Phipson & Smyth 2010).
   */
  pValue: number;
  /** Permutations drawn: fewer than asked when the outcome was already settled. */
  permutations: number;
  significant: boolean;
}

export interface EDivisiveResult {
  /** Significant change points, ascending by index. */
  changePoints: TestedSplit[];
  /** The strongest candidate that was not significant (what stopped the search), if any. */
  rejected: TestedSplit | null;
  alpha: number;
  permutations: number;
  seed: number;
  power: number;
  span: Span;
  estimator: Estimator;
  method: 'e-divisive';
}

/**
 * E-Divisive (Matteson & James 2014, "A nonparametric approach for multiple change point
 * analysis of multivariate data", JASA 109(505)), the method behind MongoDB's
 * signal-processing-algorithms and Apache Otava: bisect the series where two adjacent
 * segments differ most in distribution, keep the split if a permutation test says so, repeat
 * inside the segments.
 *
 * For a segment Z[s, e) and s < τ < κ ≤ e, X = Z[s, τ) (n values), Y = Z[τ, κ) (m values):
 *
 *   q̂(τ, κ) = 2/(n+m) ΣᵢΣⱼ |Xᵢ − Yⱼ|^a − 2m/((n+m)·c(n)) Σ_{i<k} |Xᵢ − Xₖ|^a
 *                                      − 2n/((n+m)·c(m)) Σ_{j<k} |Yⱼ − Yₖ|^a
 *
 * = mn/(m+n) times the sample energy distance, with c(n) = n − 1 for the U-statistic
 * (Matteson & James, Otava; a within term is 0 for one value) or c(n) = n for the V-statistic
 * (signal-processing-algorithms). The candidate of a segment is the τ of the largest q̂, over
 * κ = e (span `segment`, the default, as signal-processing-algorithms) or over every κ (span
 * `any`, as Matteson & James and Otava); the candidate of the series is the best over its
 * segments. Permutation test: values are shuffled within each segment, the best q̂ is found
 * again, B times; p = (b + 1)/(B + 1). A candidate with p ≤ alpha becomes a change point and
 * the search goes on; the first that is not stops it. Drawing stops early once
 * b + 1 > alpha·(B + 1) (the test can no longer pass), which changes no decision.
 *
 * Cost per evaluation of all candidates O(N) splits × O(N) (span `segment`) or O(N²) (`any`)
 * after an O(N²) pass over the distances; O(B·N²) per test; O(N) memory.
 */
export function eDivisive(
  series: readonly number[],
  options: EDivisiveOptions = {},
): EDivisiveResult {
  checkSample('series', series);
  const alpha = options.alpha ?? 0.01;
  const permutations = options.permutations ?? 499;
  const seed = options.seed ?? 1;
  const power = options.power ?? 1;
  const maxChangePoints = options.maxChangePoints ?? Infinity;
  const span = options.span ?? 'segment';
  const estimator = options.estimator ?? (span === 'segment' ? 'v' : 'u');
  const shape = { power, span, estimator };
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(Number.isInteger(permutations) && permutations >= 1)) {
    throw new RangeError(`permutations must be an integer ≥ 1, got ${permutations}`);
  }
  if (!(power > 0 && power < 2)) throw new RangeError(`power must be in (0, 2), got ${power}`);
  const values = Float64Array.from(series);
  const rng = createRng(seed);
  const cuts: number[] = [];
  const found: TestedSplit[] = [];
  // best candidate per segment [s, e), keyed "s:e"; unchanged segments are not searched again
  const memo = new Map<string, SplitCandidate | null>();
  let rejected: TestedSplit | null = null;
  while (found.length < maxChangePoints) {
    const bounds = segments(cuts, values.length);
    let best: SplitCandidate | null = null;
    for (const [s, e] of bounds) {
      const key = `${s}:${e}`;
      if (!memo.has(key)) memo.set(key, bestSplit(values, s, e, shape));
      const c = memo.get(key)!;
      if (c !== null && (best === null || c.qhat > best.qhat)) best = c;
    }
    if (best === null) break;
    const tested = permutationTest(values, bounds, best, { alpha, permutations, shape, rng });
    if (!tested.significant) {
      rejected = tested;
      break;
    }
    found.push(tested);
    cuts.push(tested.index);
    cuts.sort((a, b) => a - b);
  }
  found.sort((a, b) => a.index - b.index);
  return {
    changePoints: found,
    rejected,
    alpha,
    permutations,
    seed,
    power,
    span,
    estimator,
    method: 'e-divisive',
  };
}

/** [start, end) of the segments between sorted cut points. */
function segments(cuts: readonly number[], n: number): [number, number][] {
  const edges = [0, ...cuts, n];
  const out: [number, number][] = [];
  for (let i = 0; i + 1 < edges.length; i++) out.push([edges[i]!, edges[i + 1]!]);
  return out;
}

function permutationTest(
  values: Float64Array,
  bounds: readonly [number, number][],
  candidate: SplitCandidate,
  o: { alpha: number; permutations: number; shape: SplitShape; rng: Rng },
): TestedSplit {
  const shuffled = Float64Array.from(values);
  // the test can pass only while b + 1 ≤ alpha·(B + 1)
  const allowed = Math.floor(o.alpha * (o.permutations + 1) + 1e-9) - 1;
  // a permutation that reproduces the candidate's arrangement reaches its q̂ in exact
  // arithmetic but may fall an ulp short after summing in another order: count it
  const reach = candidate.qhat - 1e-12 * Math.abs(candidate.qhat);
  let exceed = 0;
  let drawn = 0;
  while (drawn < o.permutations && exceed <= allowed) {
    drawn++;
    let top = -Infinity;
    for (const [s, e] of bounds) {
      shuffle(shuffled, s, e, o.rng);
      const c = bestSplit(shuffled, s, e, o.shape);
      if (c !== null && c.qhat > top) top = c.qhat;
    }
    if (top >= reach) exceed++;
  }
  const pValue = (exceed + 1) / (drawn + 1);
  const significant = drawn === o.permutations && exceed <= allowed;
  return { ...candidate, pValue, permutations: drawn, significant };
}

/** Fisher–Yates shuffle of xs[s, e) in place. */
function shuffle(xs: Float64Array, s: number, e: number, rng: Rng): void {
  for (let i = e - 1; i > s; i--) {
    const j = s + rng.nextIndex(i - s + 1);
    const t = xs[i]!;
    xs[i] = xs[j]!;
    xs[j] = t;
  }
}

/**
 * The (τ, κ) of the segment z[s, e) with the largest q̂ (ties: smallest τ, then smallest κ,
 * like numpy's argmax); null for fewer than 2 values. `shape` defaults to Otava's form (span
 * `any`, U-statistics, exponent 1). With W(a, b) the sum
 * of distances within z[a, b): the cross sum of X = z[s, τ) and Y = z[τ, κ) is
 * W(s, κ) − W(s, τ) − W(τ, κ). W(s, ·) is one prefix array; W(τ, ·) is kept for one τ at a
 * time, going down from τ = e − 1, since W(τ, κ) = W(τ + 1, κ) + Σ_{τ<k<κ} d(τ, k).
 * Cost O((e − s)²) distances, O(e − s) memory.
 */
export function bestSplit(
  z: ArrayLike<number>,
  s: number,
  e: number,
  shape: Partial<SplitShape> = {},
): SplitCandidate | null {
  const power = shape.power ?? 1;
  const span = shape.span ?? 'any';
  const u = (shape.estimator ?? (span === 'segment' ? 'v' : 'u')) === 'u';
  const m = e - s;
  if (m < 2) return null;
  // distances are computed where used, |d| without Math.abs: hot loop (global lookups are
  // slow in some sandboxes, see DEVELOPERS.md)
  const exponent = power;
  // left[t] = W(s, s + t), t = 0..m
  const left = new Float64Array(m + 1);
  for (let t = 1; t < m; t++) {
    const zt = z[s + t]!;
    let add = 0;
    for (let i = 0; i < t; i++) {
      let d = z[s + i]! - zt;
      if (d < 0) d = -d;
      add += exponent === 1 ? d : d ** exponent;
    }
    left[t + 1] = left[t]! + add;
  }
  // within[k] = W(s + τ, s + k) for the current τ, k = τ+1..m
  const within = new Float64Array(m + 1);
  let bestQ = -Infinity;
  let bestTau = -1;
  let bestKappa = -1;
  for (let tau = m - 1; tau >= 1; tau--) {
    const zt = z[s + tau]!;
    let row = 0;
    within[tau + 1] = 0;
    for (let kappa = tau + 2; kappa <= m; kappa++) {
      let d = zt - z[s + kappa - 1]!;
      if (d < 0) d = -d;
      row += exponent === 1 ? d : d ** exponent;
      within[kappa] = within[kappa]! + row;
    }
    const n = tau;
    const wx = left[tau]!;
    for (let kappa = span === 'segment' ? m : tau + 1; kappa <= m; kappa++) {
      const k = kappa - tau;
      const wy = within[kappa]!;
      const cross = left[kappa]! - wx - wy;
      const total = n + k;
      let q = (2 * cross) / total;
      if (u) {
        if (n > 1) q -= (2 * k * wx) / (total * (n - 1));
        if (k > 1) q -= (2 * n * wy) / (total * (k - 1));
      } else {
        q -= (2 * k * wx) / (total * n) + (2 * n * wy) / (total * k);
      }
      // going down in τ: an equal q̂ at a smaller τ wins; at the same τ, the smaller κ
      if (q > bestQ || (q === bestQ && tau < bestTau)) {
        bestQ = q;
        bestTau = tau;
        bestKappa = kappa;
      }
    }
  }
  return { index: s + bestTau, qhat: bestQ, end: s + bestKappa };
}
