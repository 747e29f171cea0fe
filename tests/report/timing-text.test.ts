import { timingText } from '../../src/report/timing-text.js';
import type { TimingRecord } from '../../src/contracts/samples.js';

const timer: TimingRecord = {
  driver: 'command',
  clock: 'timer',
  keepBusy: 'spin',
  staggerMs: 1.1,
  warnings: [],
};

describe('timingText', () => {
  it('says where commands were timed, and in a duet what kept both sides busy', () => {
    expect(timingText(timer, 'duet')).toBe(
      "timed on each side's own CPU (duetkit-timer: spawn to exit; CPU time from wait4); a side that finished first kept its CPU busy until the other had finished; a random side started 1.1 ms later, so the two never ended together",
    );
    expect(timingText(timer, 'rmit')).toBe(
      "timed on each side's own CPU (duetkit-timer: spawn to exit; CPU time from wait4)",
    );
    expect(timingText({ ...timer, keepBusy: 'repeat', staggerMs: undefined }, 'duet')).toMatch(
      /repeated its command \(output discarded\) until the other had finished$/,
    );
  });

  it('points at the warning when the harness had to time them', () => {
    expect(timingText({ ...timer, clock: 'harness' }, 'rmit')).toBe(
      "timed by the harness's clock, which is less exact (see the warning)",
    );
    expect(timingText({ ...timer, driver: 'persistent', keepBusy: 'off' }, 'rmit')).toMatch(
      /round trips timed on each side's own CPU/,
    );
  });
});
