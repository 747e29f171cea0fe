import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { analyzeSamples } from '../analyze/analyze.js';
import { commandTimeRatios } from '../analyze/command-ratio.js';
import type { ComparisonReport } from '../contracts/comparison.js';
import type { ProfilesFile } from '../contracts/profile.js';
import type { SamplesFile } from '../contracts/samples.js';
import { writeExplainArtifacts } from '../explain/artifacts.js';
import { attachExplanations } from '../explain/attach.js';
import { profileResults } from '../profile/profile-results.js';
import { profileBudgetSeconds, type ProfilePolicy } from '../scenario/profile-schema.js';
import type { Scenario } from '../scenario/schema.js';
import type { MeasuredRun } from './local-run.js';

/** Where `profiles.json` is written, beside samples.json and comparison.json. */
export const PROFILES_FILE = 'profiles.json';

export interface ProfilingRequest {
  /** `--profile` / the action's `profile` input; absent: the scenario's `profile.when`. */
  policy?: ProfilePolicy;
  /** The results directory. */
  resultsDir: string;
  /** Told of each warning as it comes (the terminal, the action's log). */
  onWarning?: (message: string) => void;
}

/** The profiling of one run: the hook `runScenario` calls, and what it produced. */
export interface Profiling {
  /** For `RunOptions.afterMeasured`: profiles while the checkouts and the slots still exist. */
  afterMeasured(run: MeasuredRun): Promise<void>;
  /** profiles.json as written, or null when nothing was profiled (policy `never`, a failed run). */
  readonly profiles: ProfilesFile | null;
}

/**
 * Profiles base and head after the verdict (src/profile/), from inside the run so that the
 * versions' checkouts and the isolation's slots are still there, and writes profiles.json.
 * The verdict is judged here exactly as the caller will judge it (same samples, same
 * settings); never an error: whatever goes wrong becomes a warning of profiles.json.
 */
export function profilingFor(scenario: Scenario, request: ProfilingRequest): Profiling {
  const spec = { ...scenario.profile, when: request.policy ?? scenario.profile.when };
  let profiles: ProfilesFile | null = null;
  return {
    get profiles() {
      return profiles;
    },
    async afterMeasured(run) {
      if (spec.when === 'never') return;
      const budgetSeconds = profileBudgetSeconds(spec, scenario.budget);
      try {
        profiles = await profileResults({
          scenario,
          spec,
          budgetSeconds,
          samples: run.samples,
          report: analyzeSamples(run.samples),
          versions: run.samples.versions,
          isolation: run.isolation,
          env: run.env,
          signal: run.signal,
          resultsDir: request.resultsDir,
        });
      } catch (error) {
        profiles = {
          schemaVersion: 1,
          policy: spec.when,
          pairs: [],
          seconds: 0,
          warnings: [`no profiles: ${(error as Error).message}`],
        };
      }
      for (const warning of profiles.warnings) request.onWarning?.(warning);
      for (const pair of profiles.pairs) {
        if (pair.warning !== null) {
          request.onWarning?.(`profile of ${pair.benchmark}: ${pair.warning}`);
        }
      }
      const file = path.join(request.resultsDir, PROFILES_FILE);
      await writeFile(file, `${JSON.stringify(profiles, null, 2)}\n`).catch((error: Error) => {
        request.onWarning?.(`profiles not written to ${file}: ${error.message}`);
        profiles = null;
      });
    },
  };
}

/**
 * The report explained: an `explain` block on each result its profiles belong to
 * (src/explain/), and the differential flame graphs and speedscope files written beside
 * profiles.json. Without profiles the report is returned as it is. `samples` (the report's)
 * give the whole command's time ratio, for profiles that ran the whole command. Writing the
 * artifacts never costs the verdicts: a failure there is a warning.
 */
export async function explainReport(
  report: ComparisonReport,
  samples: SamplesFile,
  profiles: ProfilesFile | null,
  resultsDir: string,
  onWarning?: (message: string) => void,
): Promise<{ report: ComparisonReport; files: string[] }> {
  if (profiles === null) return { report, files: [] };
  let commandRatios = {};
  if (profiles.pairs.some((p) => p.scope === 'command')) {
    try {
      commandRatios = commandTimeRatios(samples);
    } catch (error) {
      onWarning?.(`the whole command's time could not be compared: ${(error as Error).message}`);
    }
  }
  const explained = attachExplanations(report, profiles, { commandRatios });
  try {
    const files = await writeExplainArtifacts(resultsDir, explained, profiles);
    return { report: explained, files: files.map((f) => path.join(resultsDir, f)) };
  } catch (error) {
    onWarning?.(`differential flame graphs not written: ${(error as Error).message}`);
    return { report: explained, files: [] };
  }
}
