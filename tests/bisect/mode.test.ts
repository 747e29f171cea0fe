import { chooseMode, modeCost, worthSwitching } from '../../src/bisect/mode.js';
import { bisectModeOf } from '../../src/bisect/workload.js';
import type { ModeTrial } from '../../src/contracts/bisect.js';

const trial = (half: number, seconds: number, change = 0.05): ModeTrial => ({
  change,
  lower: change - half,
  upper: change + half,
  level: 0.99,
  pairs: 30,
  seconds,
});

describe('the choice of --mode auto', () => {
  it('costs a design its log half-width times √seconds', () => {
    const t = trial(0.02, 4);
    expect(modeCost(t)).toBeCloseTo(((Math.log(1.07) - Math.log(1.03)) / 2) * 2, 12);
  });

  it('picks RMIT when its interval per second is narrower, the duet otherwise', () => {
    // RMIT takes twice the time; its interval must be narrower by more than √2 to win
    expect(chooseMode({ duet: trial(0.06, 2), rmit: trial(0.02, 4) })).toBe('rmit');
    expect(chooseMode({ duet: trial(0.02, 2), rmit: trial(0.016, 4) })).toBe('duet');
    expect(chooseMode({ duet: trial(0.02, 2), rmit: trial(0.0125, 4) })).toBe('rmit');
  });

  it('keeps the duet on a tie, and never picks an interval that is not finite', () => {
    expect(chooseMode({ duet: trial(0.02, 3), rmit: trial(0.02, 3) })).toBe('duet');
    expect(chooseMode({ duet: trial(Infinity, 1), rmit: trial(0.5, 9) })).toBe('rmit');
    expect(chooseMode({ duet: trial(0.5, 9), rmit: trial(NaN, 1) })).toBe('duet');
  });

  it('tries the other design only after a close choice (its cost within twice the chosen one’s)', () => {
    const trials = (duet: ModeTrial, rmit: ModeTrial) => ({ duet, rmit });
    // duets chosen at 1.6× below RMIT's cost: close
    expect(
      worthSwitching({ trials: trials(trial(0.038, 1.9), trial(0.055, 2.4)), chosen: 'duet' }),
    ).toBe(true);
    // RMIT chosen 4× below the duet's: not worth it
    expect(
      worthSwitching({ trials: trials(trial(0.18, 1.7), trial(0.035, 2.5)), chosen: 'rmit' }),
    ).toBe(false);
    expect(
      worthSwitching({ trials: trials(trial(Infinity, 1), trial(0.035, 2.5)), chosen: 'rmit' }),
    ).toBe(false);
  });

  it('is the default with a command, and the scenario file names its own mode', () => {
    expect(bisectModeOf(undefined, false)).toEqual({ chooseMode: true });
    expect(bisectModeOf(null, true)).toEqual({ chooseMode: false });
    expect(bisectModeOf('auto', true)).toEqual({ chooseMode: true });
    expect(bisectModeOf('rmit', false)).toEqual({ mode: 'rmit', chooseMode: false });
    expect(bisectModeOf('duet', true)).toEqual({ mode: 'duet', chooseMode: false });
  });
});
