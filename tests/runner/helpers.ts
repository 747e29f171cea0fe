import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { LoadedScenario } from '../../src/scenario/load.js';
import { parseScenario } from '../../src/scenario/load.js';
import type { ScenarioInput } from '../../src/scenario/schema.js';

/** A temporary directory with version subdirectories holding the given files. */
export async function makeWorkspace(
  versions: Record<string, Record<string, string>>,
): Promise<string> {
  const root = await mkdtemp(path.join(os.tmpdir(), 'duetkit-test-'));
  for (const [name, files] of Object.entries(versions)) {
    await mkdir(path.join(root, name), { recursive: true });
    for (const [file, text] of Object.entries(files)) {
      await writeFile(path.join(root, name, file), text);
      await chmod(path.join(root, name, file), 0o755);
    }
  }
  return root;
}

export function removeWorkspace(root: string): Promise<void> {
  return rm(root, { recursive: true, force: true });
}

/** A scenario whose `path`s are relative to `root`. */
export function loadedScenario(input: ScenarioInput, root: string): LoadedScenario {
  return { scenario: parseScenario(input), file: null, baseDir: root };
}

export const never = new AbortController().signal;
