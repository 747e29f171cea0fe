import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseFoldedText } from './fold.js';
import { runTool, whyFailed } from './tool.js';
import type { ProfileJob, ProfilerRoute } from './types.js';

/**
 * py-spy for Python (the `pytest` format, python commands): it starts the command itself, so
 * it may read its memory (ptrace) as root or, under Yama's `ptrace_scope` 1, as the parent of
 * what it samples. Its `raw` output is already folded; `--nolineno` folds by function, so a
 * frame is `function (file)`.
 */
export const pySpy: ProfilerRoute = {
  name: 'py-spy',
  workUnit: 'iteration',
  period: (frequency) => 1 / frequency,
  async ready(env) {
    const result = await runTool(['py-spy', '--version'], { env });
    return { problem: result.code === 0 ? null : whyFailed('py-spy', result), notes: [] };
  },
  wrap(job) {
    return {
      argv: [
        'py-spy',
        'record',
        '--format',
        'raw',
        '--nolineno',
        '--rate',
        String(job.frequency),
        '--output',
        foldedFile(job),
        '--',
        ...job.argv,
      ],
      env: job.env,
    };
  },
  async read(job) {
    const file = foldedFile(job);
    return { stacks: parseFoldedText(await readFile(file, 'utf8')), files: [file] };
  },
};

function foldedFile(job: ProfileJob): string {
  return path.join(job.dir, `${job.stem}.py-spy.txt`);
}
