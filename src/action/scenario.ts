import type { LoadedScenario } from '../scenario/load.js';
import { loadScenarioFile, parseScenario } from '../scenario/load.js';
import type { Scenario, ScenarioInput } from '../scenario/schema.js';
import { InputError } from './input-error.js';
import type { RunInputs } from './inputs.js';
import type { BaseHead } from './refs.js';

/** The scenario the action runs, its suite name, and the commits it compares (if any). */
export interface ActionScenario {
  loaded: LoadedScenario;
  suite: string;
  baseHead: BaseHead | null;
}

/**
 * The scenario of a `run` step: the file named by `scenario` with the inline inputs laid
 * over it, or one built from the inline inputs alone (base and head of the event as two git
 * refs). A file's two `ref` versions become the event's base and head; `path` versions run
 * as written, and then no base or head is looked up.
 */
export async function scenarioForAction(
  inputs: RunInputs,
  /** Base and head of the comparison, for the suite of that name. */
  findBaseHead: (suite: string) => Promise<BaseHead>,
): Promise<ActionScenario> {
  if (inputs.scenario !== null) {
    const loaded = await loadScenarioFile(inputs.scenario, inputs.workingDirectory);
    const refVersions = loaded.scenario.versions.filter((v) => v.ref !== undefined);
    const swap = refVersions.length === 2 && loaded.scenario.versions.length === 2;
    if (!swap && inputs.baseFromHistory) {
      throw new InputError(
        'base-from-history',
        `true needs a scenario of two versions checked out from git refs; ${inputs.scenario} has ${loaded.scenario.versions.length} version(s), ${refVersions.length} with "ref"`,
      );
    }
    const baseHead = swap ? await findBaseHead(inputs.name ?? loaded.scenario.name) : null;
    const raw: ScenarioInput = overlay(loaded.scenario, inputs);
    if (baseHead !== null) {
      raw.versions = raw.versions.map((v, i) => ({
        ...v,
        ref: i === 0 ? baseHead.base : baseHead.head,
      }));
    }
    const scenario = parseScenario(raw, `${inputs.scenario} with the action's inputs`);
    return {
      loaded: { ...loaded, scenario },
      suite: inputs.name ?? scenario.name,
      baseHead,
    };
  }
  const name = inputs.name ?? 'benchmarks';
  const baseHead = await findBaseHead(name);
  const setup = inputs.setup === null ? {} : { setup: inputs.setup };
  const raw: ScenarioInput = {
    name,
    versions: [
      { name: 'base', ref: baseHead.base, ...setup },
      { name: 'head', ref: baseHead.head, ...setup },
    ],
    workload: {
      command: inputs.run!,
      ...(inputs.format === null ? {} : { format: inputs.format }),
    },
  };
  const scenario = parseScenario(overlay(parseScenario(raw), inputs), 'the inline inputs');
  return {
    loaded: { scenario, file: null, baseDir: inputs.workingDirectory },
    suite: scenario.name,
    baseHead,
  };
}

/** The scenario with every inline input that was given laid over it. */
function overlay(scenario: Scenario, inputs: RunInputs): ScenarioInput {
  const set = <T>(value: T | null): T | undefined => (value === null ? undefined : value);
  return {
    ...scenario,
    mode: set(inputs.experimentMode) ?? scenario.mode,
    iterations: set(inputs.iterations) ?? scenario.iterations,
    budget: set(inputs.budget) ?? scenario.budget,
    isolation: set(inputs.isolation) ?? scenario.isolation,
    seed: set(inputs.seed) ?? scenario.seed,
    versions: scenario.versions.map((v) => ({
      ...v,
      setup: set(inputs.setup) ?? v.setup,
    })),
    workload: {
      ...scenario.workload,
      command: set(inputs.run) ?? scenario.workload.command,
      format: set(inputs.format) ?? scenario.workload.format,
      metric: set(inputs.metric) ?? scenario.workload.metric,
    },
    analysis: {
      ...scenario.analysis,
      threshold: inputs.threshold?.threshold ?? scenario.analysis.threshold,
      ...thresholdsOverlay(scenario, inputs),
      level: set(inputs.level) ?? scenario.analysis.level,
    },
    ...clusterOverlay(scenario, inputs),
  };
}

/** The `cluster` and `cluster-image` inputs over the scenario's `cluster:`. */
function clusterOverlay(scenario: Scenario, inputs: RunInputs): Pick<ScenarioInput, 'cluster'> {
  if (inputs.cluster === null && inputs.clusterImage === null) {
    return scenario.cluster === undefined ? {} : { cluster: scenario.cluster };
  }
  const provider = inputs.cluster ?? scenario.cluster?.provider ?? 'existing';
  return {
    cluster: {
      ...(scenario.cluster ?? {}),
      provider,
      ...(inputs.clusterImage === null ? {} : { image: inputs.clusterImage }),
    },
  };
}

/** The `threshold` input's thresholds of their own over the scenario's `analysis.thresholds`. */
function thresholdsOverlay(
  scenario: Scenario,
  inputs: RunInputs,
): { thresholds?: Record<string, number> } {
  const given = inputs.threshold?.thresholds;
  const own = scenario.analysis.thresholds;
  if (given === undefined) return own === undefined ? {} : { thresholds: own };
  return { thresholds: { ...own, ...given } };
}
