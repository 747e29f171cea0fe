/**
 * The accuracy benchmark's command workload: the fidelity benchmark's C program (a dependent
 * chain of N steps, so +1% work is exactly 1% more steps), one process per iteration, its wall
 * time taken by duetkit's command driver. calibrate evaluates it with the same methods and
 * windows as the reference workload.
 */
import type { CustomSource } from '../../src/calibrate/calibrate.js';
import { recordingCommon, type RecordingSource } from '../../src/calibrate/record.js';
import { runScenario } from '../../src/pipeline/local-run.js';
import { parseScenario } from '../../src/scenario/load.js';
import type { Programs, StepRates } from '../fidelity/programs.js';

export function commandSource(programs: Programs, rates: StepRates, sizeMs: number): CustomSource {
  const base = Math.round(rates.c * sizeMs);
  return {
    description: `command workload: a C program of ${base} chain steps (~${sizeMs} ms) per process, wall time`,
    async create(versions): Promise<RecordingSource> {
      return {
        versions: versions.map((v) => v.name),
        async record(request, signal, env) {
          const scenario = parseScenario(
            {
              name: 'accuracy-command',
              ...recordingCommon(request),
              versions: versions.map((v) => ({
                name: v.name,
                path: '.',
                env: { N: String(Math.round(base * (1 + v.change))) },
              })),
              workload: { command: [programs.c], name: 'work' },
            },
            'accuracy command scenario',
          );
          const samples = await runScenario(
            { scenario, file: null, baseDir: programs.dir },
            { signal, env },
          );
          if (!samples.complete) {
            throw new Error(`command recording ${samples.stopReason}: ${samples.error}`);
          }
          return samples;
        },
        dispose: async () => undefined,
      };
    },
  };
}
