import type { Mode } from '../scenario/schema.js';
import type { TimingRecord } from '../contracts/samples.js';

const BUSY: Record<TimingRecord['keepBusy'], string> = {
  repeat:
    'a side that finished first repeated its command (output discarded) until the other had finished',
  spin: 'a side that finished first kept its CPU busy until the other had finished',
  off: 'a side that finished first left its CPU idle',
};

/** One line on how iterations were timed, for the terminal and the PR comment. Pure. */
export function timingText(timing: TimingRecord, mode: Mode): string {
  const how =
    timing.clock === 'harness'
      ? "timed by the harness's clock, which is less exact (see the warning)"
      : timing.driver === 'command'
        ? "timed on each side's own CPU (duetkit-timer: spawn to exit; CPU time from wait4)"
        : "round trips timed on each side's own CPU (duetkit-timer relays the protocol)";
  if (mode !== 'duet') return how;
  const stagger =
    timing.staggerMs === undefined
      ? ''
      : `; a random side started ${timing.staggerMs} ms later, so the two never ended together`;
  return `${how}; ${BUSY[timing.keepBusy]}${stagger}`;
}
