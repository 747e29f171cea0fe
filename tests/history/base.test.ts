import { commitOf, plantedHistory } from '../../benchmarks/variability/history.js';
import { previousRun } from '../../src/history/base.js';
import type { HistoryEntry } from '../../src/history/schema.js';

const entries = plantedHistory({ runs: 5, seed: 1 });
const at = (e: HistoryEntry) => e.run.startedAt;

describe('previousRun (base-from-history)', () => {
  it("is the suite's newest complete run with a commit, whatever the order read", () => {
    expect(previousRun([...entries].reverse(), 'nightly', 'refs/heads/main')).toEqual({
      runId: 'run-0004',
      at: at(entries[4]!),
      commit: commitOf(4),
      ref: 'refs/heads/main',
    });
  });

  it('passes over interrupted runs, runs without a commit, other refs and other suites', () => {
    const last = entries[4]!;
    const skipped: HistoryEntry[] = [
      {
        ...last,
        runId: 'cut',
        run: { ...last.run, startedAt: '2027-01-01T00:00:00.000Z', complete: false },
      },
      {
        ...last,
        runId: 'nocommit',
        commit: null,
        run: { ...last.run, startedAt: '2027-01-02T00:00:00.000Z' },
      },
      {
        ...last,
        runId: 'branch',
        run: { ...last.run, startedAt: '2027-01-03T00:00:00.000Z', ref: 'refs/heads/dev' },
      },
      {
        ...last,
        runId: 'other',
        suite: 'other',
        run: { ...last.run, startedAt: '2027-01-04T00:00:00.000Z' },
      },
    ];
    expect(previousRun([...entries, ...skipped], 'nightly', 'refs/heads/main')?.runId).toBe(
      'run-0004',
    );
    // the branch's own run is its previous one; with no ref known, the newest of any ref
    expect(previousRun([...entries, ...skipped], 'nightly', 'refs/heads/dev')?.runId).toBe(
      'branch',
    );
    expect(previousRun([...entries, ...skipped], 'nightly', null)?.runId).toBe('branch');
    // an entry that does not say its ref counts for every ref
    const unknownRef = { ...skipped[2]!, runId: 'noref', run: { ...skipped[2]!.run, ref: null } };
    expect(previousRun([...entries, unknownRef], 'nightly', 'refs/heads/main')?.runId).toBe(
      'noref',
    );
  });

  it('is null when the suite has no usable run yet', () => {
    expect(previousRun([], 'nightly', null)).toBeNull();
    expect(previousRun(entries, 'other', null)).toBeNull();
  });
});
