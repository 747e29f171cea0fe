import { splitArgv } from '../../scenario/argv.js';
import type { ProjectFiles } from '../project.js';
import type { Detector } from '../types.js';

const SCRIPT_FILES = /(^|\/)([^/]+\.(sh|bash)|Makefile|makefile|GNUmakefile|justfile|Justfile)$/;
const OUTPUT = 'duetkit-hyperfine.json';

/** The first `hyperfine …` command line of a script, Makefile recipe or package.json script. */
async function findInvocation(
  project: ProjectFiles,
): Promise<{ file: string; line: string } | null> {
  for (const file of project.matching(SCRIPT_FILES)) {
    const text = await project.read(file);
    if (text === null) continue;
    // Join continuation lines first, so a command spread over several lines is read whole.
    const lines = text.replace(/\s*\\\r?\n\s*/g, ' ').split(/\r?\n/);
    const line = lines.find((l) => /^\s*[@-]?hyperfine\s/.test(l));
    if (line !== undefined) return { file, line: line.trim().replace(/^[@-]/, '') };
  }
  const pkg = await project.read('package.json');
  if (pkg !== null) {
    try {
      const scripts = (JSON.parse(pkg) as { scripts?: Record<string, string> }).scripts ?? {};
      for (const [name, body] of Object.entries(scripts)) {
        if (/^\s*hyperfine\s/.test(body)) return { file: `package.json (${name})`, line: body };
      }
    } catch {
      // not JSON: no scripts to look at
    }
  }
  return null;
}

/**
 * hyperfine: the first `hyperfine` command line in the project's shell scripts, Makefiles,
 * justfiles or package.json scripts, run by a shell as it is written, with its
 * `--export-json` file read (every run's time).
 */
export const hyperfineDetector: Detector = {
  id: 'hyperfine',
  aliases: [],
  lookedFor:
    'hyperfine: a hyperfine command line in *.sh, Makefile, justfile or package.json scripts',
  async detect(project) {
    const found = await findInvocation(project);
    if (found === null) return null;
    let words: string[] = [];
    try {
      words = splitArgv(found.line);
    } catch {
      // unbalanced quotes: the shell will say more when the line runs
    }
    const exportAt = words.indexOf('--export-json');
    const output = exportAt >= 0 ? words[exportAt + 1] : undefined;
    const command = output === undefined ? `${found.line} --export-json ${OUTPUT}` : found.line;
    const notes = /\$[({]|\$\w/.test(found.line)
      ? [
          `hyperfine: the line from ${found.file} uses variables; check that workload.command runs on its own`,
        ]
      : [];
    return {
      tool: 'hyperfine',
      evidence: `hyperfine in ${found.file}`,
      workload: {
        command: ['sh', '-c', command],
        format: 'hyperfine',
        output: output ?? OUTPUT,
      },
      timeout: '5m',
      steps: [
        {
          name: 'Install hyperfine',
          run: 'sudo apt-get update && sudo apt-get install -y hyperfine',
        },
      ],
      comments: [
        `The hyperfine line of ${found.file}, run by a shell from the project directory; every`,
        'run hyperfine times is read from its --export-json file.',
      ],
      notes,
    };
  },
};
