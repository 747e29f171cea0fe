import { plantedHistory } from '../../benchmarks/variability/history.js';
import {
  freshTargets,
  issueBody,
  planAlert,
  stateOf,
  stepKey,
} from '../../src/variability/alert.js';
import { analyzeVariability } from '../../src/variability/analyze.js';

const NOW = new Date('2026-12-01T00:00:00Z');
const suite = analyzeVariability(
  plantedHistory({ runs: 50, seed: 31, step: { at: 40, size: 0.2 } }),
  { now: NOW },
).suites[0]!;
const LINE =
  'bisect (6 duets): culprit [`0000000040`](https://github.com/acme/app/commit/0000000040) commit 40 (#140); confirmation `0000000039` → `0000000040`: +19.80% [+17.10%, +22.50%] (99% CI, 30 pairs)';

describe('the alert issue names what bisect found (bisect: true)', () => {
  it('tonight’s new change point is a target, with its commits', () => {
    const targets = freshTargets(suite, null);
    const c = suite.benchmarks[0]!.changePoints[0]!;
    expect(targets).toEqual([
      {
        key: stepKey('bench', c.range.from, c.range.to),
        benchmark: 'bench',
        from: c.range.from,
        to: c.range.to,
      },
    ]);
    // announced: no longer a target
    const plan = planAlert(suite, null, NOW);
    expect(freshTargets(suite, plan.state)).toEqual([]);
  });

  it('the comment and the body name the culprit under its change point, and keep it', () => {
    const [target] = freshTargets(suite, null);
    const plan = planAlert(suite, null, NOW, { [target!.key]: LINE });
    expect(plan.action).toBe('alert');
    expect(plan.comment).toContain(`\n  - ${LINE}`);
    expect(plan.body).toMatch(
      /- \*\*bench\*\* 🔴 regression .*\n {2}- bisect \(6 duets\): culprit/,
    );
    // the state survives the issue body (a subject with "-->" does not end the comment)
    const body = issueBody('nightly', plan);
    const state = stateOf(body)!;
    expect(state.culprits).toEqual({ [target!.key]: LINE });
    const tricky = planAlert(suite, null, NOW, { [target!.key]: 'culprit x --> y' });
    expect(stateOf(issueBody('nightly', tricky))!.culprits![target!.key]).toBe('culprit x --> y');
    // the next night: nothing new, the body still names the culprit
    const next = planAlert(suite, state, new Date('2026-12-02T00:00:00Z'));
    expect(next.action).toBe('clear');
    expect(next.body).toContain(LINE);
  });
});
