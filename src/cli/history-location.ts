import path from 'node:path';
import type { Command } from 'commander';
import { DEFAULT_BRANCH, DEFAULT_PATH, type HistoryLocation } from '../history/read.js';
import type { CliContext } from './context.js';

/** Where the history is, as the `duetkit history ...` commands take it. */
export interface LocationFlags {
  remote: string;
  branch: string;
  path: string;
}

/** `--remote`, `--branch`, `--path`: where the history is. */
export function addLocationOptions(command: Command): Command {
  return command
    .requiredOption(
      '--remote <url-or-path>',
      'git remote of the history: a URL, or the path of a (bare) repository',
    )
    .option('--branch <name>', 'branch of the history', DEFAULT_BRANCH)
    .option('--path <folder>', 'folder of the history in the branch', DEFAULT_PATH);
}

/** A remote given as a path is relative to the working directory. */
export function locationOf(flags: LocationFlags, ctx: CliContext): HistoryLocation {
  const isPath =
    !/^[a-z][a-z0-9+.-]*:\/\//i.test(flags.remote) && !/^[^/]+@[^/]+:/.test(flags.remote);
  return {
    remote: isPath ? path.resolve(ctx.cwd, flags.remote) : flags.remote,
    branch: flags.branch,
    path: flags.path,
    env: ctx.env,
  };
}
