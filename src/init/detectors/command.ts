import { splitArgv } from '../../scenario/argv.js';
import type { CommandSpec, ToolPlan } from '../types.js';

/** Characters that only mean something to a shell: with any of them, a shell runs the line. */
const SHELL_SYNTAX = /[|&;<>()$`*?~\n]/;

/**
 * A command given with `--command`, as a scenario runs it: split like a shell would when it is
 * plain words, else handed to `sh -c` (pipes, `&&`, variables, globs...), since scenarios
 * never run commands through a shell themselves.
 */
export function commandSpec(line: string): CommandSpec {
  const trimmed = line.trim();
  if (trimmed === '') throw new SyntaxError('expected a command to run');
  if (SHELL_SYNTAX.test(trimmed.replace(/'[^']*'/g, "''"))) return ['sh', '-c', trimmed];
  splitArgv(trimmed); // throws on an unterminated quote
  return trimmed;
}

/** A plain command, measured by its wall time (or read with `format`). */
export function commandPlan(line: string, format?: string): ToolPlan {
  return {
    tool: 'command',
    evidence: `the command ${line.trim()}`,
    workload: { command: commandSpec(line), ...(format === undefined ? {} : { format }) },
    steps: [],
    comments:
      format === undefined
        ? [
            "No format: the command's wall time is measured, on each side's own CPU, by",
            "duetkit's timer (workload.metric: cpu for its CPU time instead).",
          ]
        : [`The command's output is read as ${format} (docs/formats.md).`],
    notes: [
      'command: add the steps that install what the command needs to the workflow, before the duetkit step',
    ],
  };
}
