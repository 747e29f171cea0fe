import { parseInputs } from '../../src/action/inputs.js';
import { parseScenario } from '../../src/scenario/load.js';
import {
  parseLevel,
  parseSeconds,
  parseSince,
  parseThreshold,
  sinceStart,
  ValueError,
} from '../../src/scenario/values.js';
import { runCli } from '../helpers/cli.js';

const THRESHOLD =
  'expected a fraction above 0 and below 1 like 0.05, or a percentage above 0% and below 1000% like 5% or 150%';

describe('the value parsers', () => {
  it('reads thresholds as fractions below 1 or percentages below 1000%', () => {
    expect(parseThreshold('0.05')).toBe(0.05);
    expect(parseThreshold('5%')).toBe(0.05);
    expect(parseThreshold(' 150% ')).toBe(1.5);
    expect(parseThreshold('999%')).toBeCloseTo(9.99);
    expect(parseThreshold(0.2)).toBe(0.2);
    for (const bad of ['0', '0%', '-1%', '5', '1', '1000%', 'abc', '', '5 %x']) {
      expect(() => parseThreshold(bad)).toThrow(ValueError);
    }
    expect(() => parseThreshold(0)).toThrow(`got 0; ${THRESHOLD}`);
    expect(() => parseThreshold(1.5)).toThrow(ValueError);
  });

  it('reads levels in (0, 1)', () => {
    expect(parseLevel('99%')).toBe(0.99);
    expect(parseLevel(0.95)).toBe(0.95);
    for (const bad of ['0', '1', '100%', '99', 'high']) expect(() => parseLevel(bad)).toThrow();
  });

  it('reads durations', () => {
    expect(parseSeconds('500ms')).toBe(0.5);
    expect(parseSeconds('10m')).toBe(600);
    expect(parseSeconds(30)).toBe(30);
    expect(() => parseSeconds('soon')).toThrow(
      'got "soon"; expected seconds, or a duration like 500ms, 90s, 10m, 1h',
    );
    expect(() => parseSeconds(0)).toThrow(ValueError);
  });

  it('reads since: all, days, weeks or a date', () => {
    const now = new Date('2026-03-01T00:00:00Z');
    expect(parseSince('all')).toEqual({ all: true });
    expect(sinceStart(parseSince('all'), now)).toBeNull();
    expect(parseSince('12w')).toEqual({ days: 84 });
    expect(sinceStart(parseSince('2d'), now)).toBe('2026-02-27T00:00:00.000Z');
    expect(sinceStart(parseSince('2026-01-31'), now)).toBe('2026-01-31T00:00:00.000Z');
    expect(() => parseSince('0d')).toThrow(ValueError);
    expect(() => parseSince('soon')).toThrow(
      'got "soon"; expected all, days or weeks like 90d or 12w, or a date like 2026-01-31',
    );
  });
});

describe('one message for a bad value, wherever it is written', () => {
  const scenarioError = (analysis: Record<string, unknown>): string => {
    try {
      parseScenario({
        versions: [
          { name: 'a', path: 'a' },
          { name: 'b', path: 'b' },
        ],
        workload: { command: 'true' },
        analysis,
      });
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected the scenario to be refused');
  };
  const actionError = (inputs: Record<string, string>): string => {
    try {
      parseInputs((name) => ({ run: 'true', ...inputs })[name] ?? '', '/work/repo');
    } catch (error) {
      return (error as Error).message;
    }
    throw new Error('expected the inputs to be refused');
  };

  it.each(['0', '5', '1000%', 'abc'])('threshold %j', async (bad) => {
    const expected = `got "${bad}"; ${THRESHOLD}`;
    expect(actionError({ threshold: bad })).toBe(`Input "threshold": ${expected}`);
    expect(scenarioError({ threshold: bad }).split('\n')).toContain(
      `  - analysis.threshold: ${expected}`,
    );
    const cli = await runCli(['compare-samples', 'base.txt', 'head.txt', '--threshold', bad]);
    expect(cli.code).toBe(2);
    expect(cli.err).toContain(
      `option '--threshold <t>' argument '${bad}' is invalid. ${expected}\n`,
    );
  });

  it('a threshold above 100% is accepted by all three', async () => {
    expect(actionError({ threshold: '150%', level: 'x' })).toMatch(/^Input "level"/);
    expect(scenarioError({ threshold: '150%', level: 'x' })).not.toMatch(/threshold/);
  });

  it('level', async () => {
    const expected =
      'got "100%"; expected a confidence level above 0 and below 1 like 0.99, or 99%';
    expect(actionError({ level: '100%' })).toBe(`Input "level": ${expected}`);
    expect(scenarioError({ level: '100%' }).split('\n')).toContain(
      `  - analysis.level: ${expected}`,
    );
    const cli = await runCli(['compare-samples', 'base.txt', 'head.txt', '--level', '100%']);
    expect(cli.err).toContain(`argument '100%' is invalid. ${expected}\n`);
  });
});
