import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { UserError } from '../errors.js';

/** The dashboard's files, as `npm run bundle` builds them into dist/dashboard/. */
export const DASHBOARD_FILES = ['index.html', 'dashboard.js', 'dashboard.css'] as const;

/**
 * Where the built dashboard is: beside the bundle (dist/dashboard/, for the action and the
 * published CLI) or, running from source, the repository's dist/dashboard/.
 */
export function dashboardDir(): string {
  const here = path.dirname(fileURLToPath(import.meta.url));
  const candidates = [path.join(here, 'dashboard'), path.resolve(here, '../../dist/dashboard')];
  const found = candidates.find((dir) => existsSync(path.join(dir, 'index.html')));
  if (found === undefined) {
    throw new UserError(
      `the dashboard is not built (looked in ${candidates.join(', ')}): run npm run bundle`,
    );
  }
  return found;
}

/** The dashboard's files (name → content), to be written beside the history's data. */
export async function readDashboard(dir = dashboardDir()): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const names = new Set(await readdir(dir));
  for (const name of DASHBOARD_FILES) {
    if (!names.has(name))
      throw new UserError(`the dashboard in ${dir} lacks ${name}: run npm run bundle`);
    files.set(name, await readFile(path.join(dir, name)));
  }
  return files;
}
