import { formatArgv } from '../scenario/argv.js';
import { UserError } from '../errors.js';

/** A run that could not complete; printed as one line (plus stderr context), no stack trace. */
export class RunError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'RunError';
  }
}

/** Where a failure happened, so the message tells the user what to rerun by hand. */
export interface FailureContext {
  argv: readonly string[];
  version: string;
  /** Round/iteration, or null for setup and start-up. */
  round: number | null;
  cwd: string;
}

/** `RunError` naming the command, version, iteration and the last lines of its stderr. */
export function commandFailure(context: FailureContext, what: string, stderr: string): RunError {
  const at = context.round === null ? '' : `, iteration ${context.round}`;
  const tail = lastLines(stderr, 10);
  return new RunError(
    `${formatArgv(context.argv)} (version ${context.version}${at}, in ${context.cwd}) ${what}` +
      (tail === '' ? '; it wrote nothing to stderr' : `; last lines of its stderr:\n${tail}`),
  );
}

export function lastLines(text: string, count: number): string {
  const lines = text.trimEnd().split('\n');
  return lines
    .slice(-count)
    .map((line) => `  | ${line}`)
    .join('\n')
    .replace(/^ {2}\| $/, '');
}
