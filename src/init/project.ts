import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';

/**
 * The files of the project `duetkit init` looks at, listed once: relative POSIX paths, with
 * dependency, build and VCS directories left out (their files are not the user's benchmarks,
 * and `node_modules` alone can hold 100,000 files). Reads are cached and capped in size.
 */
export interface ProjectFiles {
  /** Absolute path of the project directory. */
  readonly root: string;
  /** Every file found, relative to `root`, `/`-separated, sorted. */
  readonly files: readonly string[];
  /** A file's text, or null when it does not exist, is not a file or is larger than the cap. */
  read(rel: string): Promise<string | null>;
  /** Files whose path matches `pattern`, in `files` order. */
  matching(pattern: RegExp): string[];
}

/** Directories never searched, whatever their depth. */
const SKIPPED = new Set([
  '.git',
  '.hg',
  '.svn',
  '.duetkit',
  '.github',
  '.idea',
  '.vscode',
  'node_modules',
  'bower_components',
  'vendor',
  'target',
  'build',
  'dist',
  'out',
  '.gradle',
  '.venv',
  'venv',
  'env',
  '.tox',
  '.nox',
  '__pycache__',
  '.pytest_cache',
  '.mypy_cache',
  '.benchmarks',
  'site-packages',
  'CMakeFiles',
]);

export interface ListOptions {
  /** Deepest directory level searched below the root (the root is 0). Default 6. */
  maxDepth?: number;
  /** Stop listing after this many files. Default 20,000. */
  maxFiles?: number;
  /** Largest file `read` returns, in bytes. Default 512 KiB. */
  maxBytes?: number;
}

/** Lists the project at `root` (which must be a directory). */
export async function listProject(root: string, options: ListOptions = {}): Promise<ProjectFiles> {
  const maxDepth = options.maxDepth ?? 6;
  const maxFiles = options.maxFiles ?? 20_000;
  const maxBytes = options.maxBytes ?? 512 * 1024;
  const files: string[] = [];
  const walk = async (rel: string, depth: number): Promise<void> => {
    const entries = await readdir(path.join(root, rel), { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (files.length >= maxFiles) return;
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.isDirectory()) {
        if (depth < maxDepth && !SKIPPED.has(entry.name) && !entry.name.endsWith('.egg-info')) {
          await walk(child, depth + 1);
        }
      } else if (entry.isFile()) {
        files.push(child);
      }
    }
  };
  await walk('', 0);
  const cache = new Map<string, Promise<string | null>>();
  const readCapped = async (rel: string): Promise<string | null> => {
    const file = path.join(root, rel);
    const info = await stat(file).catch(() => null);
    if (info === null || !info.isFile() || info.size > maxBytes) return null;
    return readFile(file, 'utf8').catch(() => null);
  };
  return {
    root,
    files,
    read(rel) {
      let text = cache.get(rel);
      if (text === undefined) cache.set(rel, (text = readCapped(rel)));
      return text;
    },
    matching: (pattern) => files.filter((f) => pattern.test(f)),
  };
}

/** The files among `candidates` whose text matches `pattern`, with their text. */
export async function filesContaining(
  project: ProjectFiles,
  candidates: readonly string[],
  pattern: RegExp,
): Promise<{ file: string; text: string }[]> {
  const found: { file: string; text: string }[] = [];
  for (const file of candidates) {
    const text = await project.read(file);
    if (text !== null && pattern.test(text)) found.push({ file, text });
  }
  return found;
}
