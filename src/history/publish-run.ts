import { actionsRunId, readCommit, runContextFromEnv } from './context.js';
import { buildEntry, headVersionIndex } from './entry.js';
import { shortHash } from './layout.js';
import type { Retention } from './prune.js';
import { publishEntry, type PublishResult } from './publish.js';
import { PublishError, type EditOptions } from './push-loop.js';
import { readRunResults } from './results.js';
import type { HistoryEntry } from './schema.js';
import type { ComparisonReport } from '../contracts/comparison.js';
import type { SamplesFile } from '../contracts/samples.js';

export interface PublishRunOptions extends EditOptions {
  /** The results directory of a run (samples.json, comparison.json). */
  resultsDir: string;
  /** The repository whose commits were measured, for their message and author. */
  repoDir: string;
  /** Default: the workflow run id and attempt in Actions, else a hash of samples.json. */
  runId?: string;
  /** Default: the action's suite (duetkit-run.json), else the scenario's name. */
  suite?: string;
  retention?: Retention | null;
  dashboard: ReadonlyMap<string, Buffer> | null;
  /** The event to record outside Actions. Default `cli`. */
  event?: string;
  /** Warnings about the entry itself (a commit git does not know). */
  warn?: (message: string) => void;
  /**
   * The entry as the caller completes it from the run before it is published (e.g. an A/A
   * run's `aa` block, src/variability/aa.ts). Default: as built.
   */
  amendEntry?: (
    entry: HistoryEntry,
    samples: SamplesFile,
    report: ComparisonReport,
  ) => HistoryEntry;
}

/**
 * A run's results directory published as one history entry: the entry built (the commit read
 * from git in `repoDir`), then `publishEntry`. Any failure to publish says what was not
 * published and where the results still are.
 */
export async function publishRun(
  options: PublishRunOptions,
): Promise<{ result: PublishResult; entry: HistoryEntry }> {
  const env = options.env ?? process.env;
  const results = await readRunResults(options.resultsDir);
  const context = runContextFromEnv(env, options.event);
  const suite = options.suite ?? results.suite ?? results.samples.scenario.name;
  const runId =
    options.runId ?? actionsRunId(context) ?? `local-${shortHash(results.samplesText, 16)}`;
  const head =
    results.samples.versions[headVersionIndex(results.samples, results.report.settings.baseline)]!;
  let commit = null;
  if (head.commit !== null) {
    const read = await readCommit(options.repoDir, head.commit, context.repositoryUrl);
    if (read.warning !== null) options.warn?.(read.warning);
    commit = read.commit;
  }
  const built = buildEntry({
    samples: results.samples,
    report: results.report,
    suite,
    runId,
    context,
    commit,
    recordedAt: new Date().toISOString(),
  });
  const entry = options.amendEntry?.(built, results.samples, results.report) ?? built;
  try {
    return { result: await publishEntry({ ...options, entry }), entry };
  } catch (error) {
    if (error instanceof PublishError) {
      throw new PublishError(
        `run ${runId} of suite "${suite}" was not published: ${error.message}. Its results are still in ${options.resultsDir}; publish them later with: duetkit history publish ${options.resultsDir} --remote ... --run-id ${runId}`,
        error.kind,
      );
    }
    throw error;
  }
}
