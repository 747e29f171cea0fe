import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { UserError } from '../errors.js';
import { runGit, type GitResult } from '../git/run.js';

/** A file of a commit's tree: its path from the repository root and its blob id. */
export interface TreeFile {
  path: string;
  oid: string;
}

/** What became of a push. `race`: someone pushed first (fetch and re-apply). */
export type PushResult =
  { ok: true } | { ok: false; kind: 'race' | 'denied' | 'rejected'; message: string };

/**
 * The git operations of the history store, on one branch of one remote, without a work tree:
 * the tip is fetched shallow and without file contents (blobs come in batches when read), so
 * a publish costs the same whatever the branch's history. Behind an interface so the store's
 * logic can be driven against real git in tests and replaced where git is not available.
 */
export interface BranchGit {
  readonly remote: string;
  readonly branch: string;
  /** Fetches the branch; its tip, or null when the branch does not exist on the remote. */
  fetchTip(): Promise<string | null>;
  /** Every file under `dir` (a path from the root, '' for all) in `commit`'s tree. */
  listFiles(commit: string, dir: string): Promise<TreeFile[]>;
  /** The contents of blobs, fetched from the remote in one batch where missing here. */
  readBlobs(oids: readonly string[]): Promise<Map<string, Buffer>>;
  /**
   * A new commit on `parent` (null: an orphan, the first of the branch) with `changes`
   * applied: new contents, or null to delete a file. Returns its id; nothing is pushed.
   */
  commit(
    parent: string | null,
    changes: ReadonlyMap<string, Buffer | string | null>,
    message: string,
  ): Promise<string>;
  /** Pushes `commit` to the branch as a fast-forward; never forced. */
  push(commit: string): Promise<PushResult>;
  /** Removes the local repository. */
  dispose(): Promise<void>;
}

export interface BranchGitOptions {
  /** A URL (https, ssh, file) or a local path of a (bare) repository. */
  remote: string;
  branch: string;
  /** For https remotes: sent as GitHub's Actions token (x-access-token), never in the URL. */
  token?: string;
  /** Committer of the store's commits. Default: $GIT_COMMITTER_NAME/EMAIL, else duetkit. */
  committer?: { name: string; email: string };
  env?: NodeJS.ProcessEnv;
  /** Where the local repository goes. Default: the OS's temporary directory. */
  tmpDir?: string;
}

export class GitStoreError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'RunError';
  }
}

/** A `BranchGit` running the real git in a temporary bare repository. */
export async function openBranch(options: BranchGitOptions): Promise<BranchGit> {
  const env = options.env ?? process.env;
  const dir = await mkdtemp(path.join(options.tmpDir ?? os.tmpdir(), 'duetkit-history-'));
  const remote = isUrl(options.remote) ? options.remote : path.resolve(options.remote);
  const gitEnv: NodeJS.ProcessEnv = {
    ...env,
    GIT_DIR: dir,
    LC_ALL: 'C',
    GIT_TERMINAL_PROMPT: '0',
  };
  delete gitEnv.GIT_INDEX_FILE;
  delete gitEnv.GIT_WORK_TREE;
  const config: [string, string][] = [];
  if (options.token !== undefined && options.token !== '' && /^https?:\/\//.test(remote)) {
    // As actions/checkout does: the token travels in a header, never in the URL or argv.
    const basic = Buffer.from(`x-access-token:${options.token}`).toString('base64');
    config.push(['http.extraheader', `AUTHORIZATION: basic ${basic}`]);
  }
  gitEnv.GIT_CONFIG_COUNT = String(config.length);
  config.forEach(([key, value], i) => {
    gitEnv[`GIT_CONFIG_KEY_${i}`] = key;
    gitEnv[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  const committer = options.committer ?? {
    name: env.GIT_COMMITTER_NAME || 'duetkit',
    email: env.GIT_COMMITTER_EMAIL || 'duetkit@users.noreply.github.com',
  };

  const run = async (args: string[], input?: Buffer | string): Promise<GitResult> => {
    const result = await runGit(args, {
      env: gitEnv,
      ...(input === undefined ? {} : { input }),
    }).catch((error: Error) => {
      throw new GitStoreError(`cannot run git (${error.message}); is git installed?`);
    });
    return { ...result, stderr: result.stderr.trim() };
  };
  const git = async (args: string[], input?: Buffer | string): Promise<Buffer> => {
    const result = await run(args, input);
    if (result.code !== 0) {
      throw new GitStoreError(`git ${args.join(' ')}: ${redact(result.stderr, options.token)}`);
    }
    return result.stdout;
  };

  await git(['init', '--quiet', '--bare']);
  // A partial clone: the tip's trees come with the fetch, file contents only when read. Written
  // into the config file at once (one `git config` per key is six more processes per publish).
  const quoted = (value: string): string =>
    `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"`;
  const configFile = path.join(dir, 'config');
  const initial = (await readFile(configFile, 'utf8')).replace(
    /repositoryformatversion = 0/,
    'repositoryformatversion = 1',
  );
  await writeFile(
    configFile,
    `${initial}[extensions]\n\tpartialClone = origin\n[remote "origin"]\n\turl = ${quoted(remote)}\n` +
      `\tpromisor = true\n\tpartialclonefilter = blob:none\n[gc]\n\tauto = 0\n`,
  );
  const trackingRef = `refs/remotes/origin/${options.branch}`;
  let counter = 0;
  /** Contents read so far (blobs never change). */
  const cache = new Map<string, Buffer>();
  /** True when the server ignored the filter and every file's contents came with the tip. */
  let complete = false;

  return {
    remote: options.remote,
    branch: options.branch,
    async fetchTip() {
      const listed = await run([
        'ls-remote',
        '--exit-code',
        'origin',
        `refs/heads/${options.branch}`,
      ]);
      if (listed.code === 2) return null;
      if (listed.code !== 0) {
        throw new GitStoreError(
          `cannot read the remote ${options.remote}: ${redact(listed.stderr, options.token)}`,
        );
      }
      const fetched = await run([
        'fetch',
        '--no-tags',
        '--depth=1',
        '--filter=blob:none',
        'origin',
        `+refs/heads/${options.branch}:${trackingRef}`,
      ]);
      if (fetched.code !== 0) {
        throw new GitStoreError(
          `cannot fetch ${options.branch} from ${options.remote}: ${redact(fetched.stderr, options.token)}`,
        );
      }
      // A server without partial clone (a plain local path, say) sends every file's contents.
      if (/filtering not recognized by server/.test(fetched.stderr)) complete = true;
      return (await git(['rev-parse', trackingRef])).toString().trim();
    },
    async listFiles(commit, dir) {
      const args = ['ls-tree', '-r', '-z', '--full-tree', commit];
      if (dir !== '') args.push('--', dir);
      const out = (await git(args)).toString();
      const files: TreeFile[] = [];
      for (const line of out.split('\0')) {
        const m = /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line);
        if (m !== null) files.push({ oid: m[1]!, path: m[2]! });
      }
      return files;
    },
    async readBlobs(oids) {
      const result = new Map<string, Buffer>();
      const wanted = [...new Set(oids)].filter((oid) => {
        const cached = cache.get(oid);
        if (cached !== undefined) result.set(oid, cached);
        return cached === undefined;
      });
      if (wanted.length === 0) return result;
      if (!complete) {
        // One fetch for every content wanted, as git's own lazy fetch asks for them (no
        // negotiation: a shallow clone has nothing to offer); cat-file would fetch one by one.
        await git(
          [
            '-c',
            'fetch.negotiationAlgorithm=noop',
            'fetch',
            '--quiet',
            'origin',
            '--no-tags',
            '--no-write-fetch-head',
            '--recurse-submodules=no',
            '--filter=blob:none',
            '--stdin',
          ],
          `${wanted.join('\n')}\n`,
        );
      }
      const out = await git(['cat-file', '--batch'], `${wanted.join('\n')}\n`);
      let at = 0;
      while (at < out.length) {
        const eol = out.indexOf(10, at);
        const header = out.subarray(at, eol).toString();
        const m = /^([0-9a-f]+) (\w+) (\d+)$/.exec(header);
        if (m === null) throw new GitStoreError(`git cat-file: cannot read object: ${header}`);
        const size = Number(m[3]);
        const content = out.subarray(eol + 1, eol + 1 + size);
        result.set(m[1]!, content);
        cache.set(m[1]!, content);
        at = eol + 1 + size + 1;
      }
      return result;
    },
    async commit(parent, changes, message) {
      const ref = `refs/duetkit/commit-${++counter}`;
      const when = `${Math.floor(Date.now() / 1000)} +0000`;
      const parts: Buffer[] = [];
      const put = (s: string | Buffer): void => {
        parts.push(typeof s === 'string' ? Buffer.from(s) : s);
      };
      const data = (body: Buffer): void => {
        put(`data ${body.length}\n`);
        put(body);
        put('\n');
      };
      put(`commit ${ref}\n`);
      put(`committer ${committer.name} <${committer.email}> ${when}\n`);
      data(Buffer.from(message));
      if (parent !== null) put(`from ${parent}\n`);
      for (const [file, content] of changes) {
        const quoted = quotePath(file);
        if (content === null) {
          put(`D ${quoted}\n`);
        } else {
          put(`M 100644 inline ${quoted}\n`);
          data(typeof content === 'string' ? Buffer.from(content) : content);
        }
      }
      put('done\n');
      await git(['fast-import', '--quiet', '--done', '--force'], Buffer.concat(parts));
      return (await git(['rev-parse', ref])).toString().trim();
    },
    async push(commit) {
      const result = await run([
        'push',
        '--porcelain',
        'origin',
        `${commit}:refs/heads/${options.branch}`,
      ]);
      if (result.code === 0) return { ok: true };
      const text = redact(`${result.stderr}\n${result.stdout.toString()}`, options.token).trim();
      return { ok: false, kind: classifyPushFailure(text), message: text };
    },
    dispose: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * Why a push failed. `race`: the branch moved (or was created) since we fetched it, or a
 * concurrent push held its lock: fetch and re-apply. `denied`: the token may not write
 * (GitHub's 403, a read-only deploy key). `rejected`: anything else the remote refused
 * (a protected branch, a hook) — not worth retrying.
 */
export function classifyPushFailure(text: string): 'race' | 'denied' | 'rejected' {
  if (
    /\[rejected\].*\((fetch first|non-fast-forward|stale info)\)/.test(text) ||
    /cannot lock ref|failed to update ref|incorrect old value|unable to update local ref|is at [0-9a-f]+ but expected/.test(
      text,
    )
  ) {
    return 'race';
  }
  if (
    /\b403\b|Permission to .* denied|Write access to repository not granted|Authentication failed|could not read Username|terminal prompts disabled|insufficient permission|Permission denied|read-only/i.test(
      text,
    )
  ) {
    return 'denied';
  }
  return 'rejected';
}

function isUrl(remote: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(remote) || /^[^/]+@[^/]+:/.test(remote);
}

/** fast-import's path syntax: quoted, C-style, when it has special characters. */
function quotePath(file: string): string {
  if (!/["\\\n\s]|^"/.test(file)) return file;
  return `"${file.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\n')}"`;
}

/** The token never reaches git's argv or URL; if some message still quoted it, it goes. */
function redact(text: string, token: string | undefined): string {
  return token === undefined || token.length < 8 ? text : text.split(token).join('***');
}
