import type { RangeCommit } from '../../src/contracts/bisect.js';
import type { DuetOutcome, RunDuet } from '../../src/bisect/search.js';
import { createRng } from '../../src/stats/rng.js';

/** A planted history: commit i's level (log) is the sum of the steps at or before i. */
export interface Planted {
  commits: number;
  steps: { at: number; size: number }[];
  /** Half-width of a duet's interval at effort 1 (relative), and its estimate's noise. */
  halfWidth?: number;
  /** Commits that do not build. */
  broken?: number[];
  /** Effort below which duets of these commits come back wide (unclear). */
  wide?: { commits: number[]; below: number };
  /**
   * A systematic offset (log) in every duet of two different commits, whatever their levels:
   * what two checkouts of the same code can show (their paths, the page cache).
   */
  offset?: number;
  /**
   * A probe misread once: the first duet with this commit as head reads `log` more than its
   * level (a speed phase of the VM falling on one side of one duet).
   */
  misread?: { commit: number; log: number };
  seed?: number;
}

export function plantedCommits(n: number): RangeCommit[] {
  return Array.from({ length: n + 1 }, (_, i) => ({
    id: `c${String(i).padStart(3, '0')}`.padEnd(40, '0'),
    subject: i === 0 ? 'good' : `commit ${i} (#${100 + i})`,
    pullRequest: i === 0 ? null : 100 + i,
    merge: false,
  }));
}

/**
 * A fake duet over a planted history: the true change head/base − 1 plus seeded noise, with
 * an interval of the given half-width around it (narrower as √effort). Records every call.
 */
export function plantedDuet(p: Planted): { duet: RunDuet; calls: [string, string, number][] } {
  const commits = plantedCommits(p.commits);
  const rng = createRng(p.seed ?? 1);
  const level = (id: string): number => {
    const i = commits.findIndex((c) => c.id === id);
    return p.steps.filter((s) => s.at <= i).reduce((sum, s) => sum + Math.log1p(s.size), 0);
  };
  const index = (id: string) => commits.findIndex((c) => c.id === id);
  const calls: [string, string, number][] = [];
  let misread = p.misread;
  const duet: RunDuet = (base, head, effort) => {
    calls.push([base, head, effort]);
    const bias = misread !== undefined && index(head) === misread.commit ? misread.log : 0;
    if (bias !== 0) misread = undefined;
    const broken = [base, head].find((id) => p.broken?.includes(index(id)));
    if (broken !== undefined)
      return Promise.resolve<DuetOutcome>({
        kind: 'unbuildable',
        commit: broken,
        reason: 'make: *** [all] Error 1',
      });
    const wide =
      p.wide !== undefined &&
      effort < p.wide.below &&
      [base, head].some((id) => p.wide!.commits.includes(index(id)));
    const h = (wide ? 0.5 : (p.halfWidth ?? 0.02)) / Math.sqrt(effort);
    const log =
      level(head) -
      level(base) +
      (base === head ? 0 : (p.offset ?? 0)) +
      bias +
      (h / 3) * rng.nextNormal();
    return Promise.resolve<DuetOutcome>({
      kind: 'measured',
      result: {
        change: Math.expm1(log),
        lower: Math.expm1(log - h),
        upper: Math.expm1(log + h),
        level: 0.99,
        pairs: 30 * effort,
        seconds: 10 * effort,
      },
    });
  };
  return { duet, calls };
}

/**
 * Two steps of +10% (at 19 and 60 of 64) whose probe at 32 reads 92% of the change where the
 * truth is 50% (a real range did so): 32..64 looks like bad throughout at first.
 */
export const MISREAD_TWO_STEPS: Planted = {
  commits: 64,
  steps: [
    { at: 19, size: 0.1 },
    { at: 60, size: 0.1 },
  ],
  halfWidth: 0.01,
  misread: { commit: 32, log: 0.08 },
};
