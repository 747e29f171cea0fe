import { parseScenario } from '../../src/scenario/load.js';
import { defaultProfile, profileBudgetSeconds } from '../../src/scenario/profile-schema.js';

const base = {
  versions: [
    { name: 'a', path: '.' },
    { name: 'b', path: '.' },
  ],
  workload: { command: './bench' },
};
const parse = (profile: unknown) => parseScenario({ ...base, profile }).profile;
const problem = (profile: unknown) => {
  try {
    parseScenario({ ...base, profile });
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('parsed');
};

describe('scenario profile:', () => {
  it('defaults to changed, perf-friendly settings, no budget of its own', () => {
    expect(parseScenario(base).profile).toEqual({
      when: 'changed',
      profiler: 'auto',
      runs: 8,
      frequency: 999,
      callGraph: 'fp',
    });
    expect(defaultProfile()).toEqual(parseScenario(base).profile);
  });

  it('takes a policy alone or an object', () => {
    expect(parse('always')).toMatchObject({ when: 'always', profiler: 'auto' });
    expect(parse('never').when).toBe('never');
    expect(
      parse({
        when: 'always',
        profiler: 'perf',
        budget: '2m',
        runs: 3,
        frequency: 499,
        callGraph: 'dwarf',
      }),
    ).toEqual({
      when: 'always',
      profiler: 'perf',
      budget: 120,
      runs: 3,
      frequency: 499,
      callGraph: 'dwarf',
    });
  });

  it('names the field, the value and what is accepted', () => {
    expect(problem('sometimes')).toContain(
      'profile: got "sometimes"; expected one of "changed", "always", "never"',
    );
    expect(problem({ when: 'x' })).toContain(
      'profile.when: got "x"; expected one of "changed", "always", "never"',
    );
    expect(problem({ profiler: 'gprof' })).toContain(
      'profile.profiler: got "gprof"; expected one of "auto", "perf", "pprof", "py-spy", "node"',
    );
    expect(problem({ budget: 'soon' })).toContain('profile.budget: got "soon"; expected seconds');
    expect(problem({ runs: 0 })).toContain('profile.runs: got 0; expected');
    expect(problem({ frequence: 3 })).toContain(
      'no field "frequence" (accepted: when, profiler, budget, runs, frequency, callGraph)',
    );
    expect(problem(5)).toContain(
      'profile: got 5; expected one of changed, always, never, or an object with fields when, profiler, budget, runs, frequency, callGraph',
    );
  });

  it('budget: its own, else a fifth of the run budget, else 60 s', () => {
    expect(profileBudgetSeconds(parse({ budget: 30 }), 600)).toBe(30);
    expect(profileBudgetSeconds(parse('always'), 600)).toBe(120);
    expect(profileBudgetSeconds(parse('always'), undefined)).toBe(60);
  });
});
