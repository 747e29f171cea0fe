import type { SamplesFile } from '../contracts/samples.js';

/** What a report says about the run besides the comparisons: where, when, what. */
export interface RunMeta {
  /** The suite: one PR comment each. */
  suite: string;
  /** The machine, in one line (CPU model, cores, memory, OS, Node; the CI runner's name). */
  runner: string;
  durationSeconds: number;
  versions: { name: string; commit: string | null; source: string }[];
  /**
   * The baseline branch's recent trend per benchmark (a text sparkline of its newest runs in
   * the history, docs/history.md), shown beside the change; absent without a history.
   */
  trends?: { label: string; byBenchmark: Record<string, string> };
}

/** The meta of a samples file; `runnerLabel` (e.g. the runner's name and image) leads. */
export function runMetaOf(samples: SamplesFile, suite: string, runnerLabel?: string): RunMeta {
  const m = samples.machine;
  const memory = `${Math.round(m.memoryBytes / 2 ** 30)} GiB`;
  const parts = [
    `${m.cpuModel}`,
    `${m.cores} CPUs`,
    memory,
    `${m.platform} ${m.kernel} ${m.arch}`,
    `Node ${m.node}`,
    `load ${m.loadAverage.join(' ')}`,
  ];
  if (runnerLabel !== undefined && runnerLabel !== '') parts.unshift(runnerLabel);
  const duration = (Date.parse(samples.finishedAt) - Date.parse(samples.startedAt)) / 1000;
  return {
    suite,
    runner: parts.join(', '),
    durationSeconds: Number.isFinite(duration) ? Math.max(0, duration) : 0,
    versions: samples.versions.map((v) => ({
      name: v.name,
      commit: v.commit,
      source: 'ref' in v.source ? `ref ${v.source.ref}` : `path ${v.source.path}`,
    })),
  };
}
