import { loadScenarioFile, ScenarioError, scenarioFromObject } from '../scenario/load.js';
import type { Scenario } from '../scenario/schema.js';
import { splitArgv } from '../scenario/argv.js';

/**
 * The mode setting of a bisect (`--mode`, the action's `bisect-mode`) split into what the
 * scenario is built with and whether the run chooses between the designs (`auto`). Unset:
 * `auto` with a command; a scenario file's own mode with a file. `duet` or `rmit` with a
 * scenario file is refused by `bisectScenario` (the file names its mode).
 */
export function bisectModeOf(
  mode: 'duet' | 'rmit' | 'auto' | undefined | null,
  scenarioFile: boolean,
): { mode?: 'duet' | 'rmit'; chooseMode: boolean } {
  if (mode === 'auto') return { chooseMode: true };
  if (mode === undefined || mode === null) return { chooseMode: !scenarioFile };
  return { mode, chooseMode: false };
}

/** Where a bisect's workload comes from: a scenario file, or a command with compare's settings. */
export interface BisectWorkload {
  scenarioFile?: string;
  /** Resolves `scenarioFile`. */
  cwd: string;
  command?: readonly string[];
  /** How each probe runs the two commits (with a command; a scenario file says it itself): `duet` (default: at the same time on two CPUs) or `rmit` (one at a time, in randomized interleaved rounds). */
  mode?: 'duet' | 'rmit';
  setup?: string | readonly string[];
  format?: string;
  iterations?: number;
  warmup?: number;
  timeout?: string;
  isolation?: 'auto' | 'cpuset' | 'taskset' | 'none';
  level?: number;
  threshold?: number;
  /** Names the options in errors (`the bisect options`, `the action's inputs`). */
  source: string;
}

/**
 * The scenario every probe's duet runs: a scenario file (mode duet or rmit, on this machine),
 * or the command as `duetkit compare` builds it. Exactly one of the two.
 */
export async function bisectScenario(w: BisectWorkload): Promise<Scenario> {
  const command = w.command ?? [];
  if (w.scenarioFile !== undefined) {
    if (command.length > 0 || w.mode !== undefined)
      throw new ScenarioError(
        command.length > 0
          ? `${w.source}: bisect takes the workload from a scenario or from a command, not both`
          : `${w.source}: the mode (${w.mode}) comes from the scenario file's "mode" with a scenario; give one or the other`,
      );
    const { scenario } = await loadScenarioFile(w.scenarioFile, w.cwd);
    if (scenario.mode !== 'duet' && scenario.mode !== 'rmit')
      throw new ScenarioError(
        `${w.scenarioFile}: mode ${scenario.mode} cannot bisect; accepted: duet, rmit (paired probes)`,
      );
    if (scenario.cluster !== undefined)
      throw new ScenarioError(`${w.scenarioFile}: bisect runs on this machine; remove "cluster"`);
    return {
      ...scenario,
      ...(w.iterations === undefined ? {} : { iterations: w.iterations }),
      ...(w.setup === undefined
        ? {}
        : {
            versions: scenario.versions.map((v) => ({
              ...v,
              setup: typeof w.setup === 'string' ? splitArgv(w.setup) : [...w.setup!],
            })),
          }),
    };
  }
  if (command.length === 0)
    throw new ScenarioError(`${w.source}: bisect needs a benchmark command or a scenario file`);
  const setup =
    w.setup === undefined ? {} : { setup: typeof w.setup === 'string' ? w.setup : [...w.setup] };
  return scenarioFromObject(
    {
      name: 'bisect',
      mode: w.mode ?? 'duet',
      versions: [
        { name: 'base', path: '.', ...setup },
        { name: 'head', path: '.', ...setup },
      ],
      workload: { command: [...command], ...(w.format === undefined ? {} : { format: w.format }) },
      ...(w.iterations === undefined ? {} : { iterations: w.iterations }),
      ...(w.warmup === undefined ? {} : { warmup: w.warmup }),
      ...(w.timeout === undefined ? {} : { timeout: w.timeout }),
      ...(w.isolation === undefined ? {} : { isolation: w.isolation }),
      analysis: {
        ...(w.level === undefined ? {} : { level: w.level }),
        ...(w.threshold === undefined ? {} : { threshold: w.threshold }),
      },
    },
    w.source,
  );
}
