import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import tar from 'tar-fs';
import { BENCH_CONTAINER } from './manifests.js';
import { describeKubeError, type Kube } from './kube.js';
import { ClusterError } from './types.js';

/**
 * Code in and results out, through the Kubernetes API only: a tar stream into `tar -x` run by
 * exec in the container, and `cat` of the results file. No registry, volume or storage
 * service is needed; the image needs `sh` and `tar`, as every base image with Node.js has.
 */
export interface PodTarget {
  kube: Kube;
  namespace: string;
  pod: string;
}

/** Where everything lives inside the pod (an emptyDir, see k8s/duet-job.yaml). */
export const POD_ROOT = '/duetkit';

/** Copies a host directory (without `.git`; only `entries` when given) into `target` in the pod. */
export async function copyDirectory(
  to: PodTarget,
  dir: string,
  target: string,
  entries?: string[],
): Promise<void> {
  const archive = `${POD_ROOT}/.incoming/${path.basename(target)}.tar`;
  await send(
    to,
    archive,
    () =>
      tar.pack(dir, {
        ignore: (name) => path.basename(name) === '.git',
        ...(entries === undefined ? {} : { entries }),
      }) as AsyncIterable<Buffer>,
    `copy ${dir}`,
  );
  await run(
    to,
    ['sh', '-c', 'mkdir -p "$2" && tar -xf "$1" -C "$2" && rm -f "$1"', 'sh', archive, target],
    undefined,
    `unpack ${dir}`,
  );
}

/** Writes one file inside the pod. */
export async function writeFile(to: PodTarget, file: string, content: Buffer): Promise<void> {
  await send(to, `${file}.part`, () => [content], `write ${file}`);
  await run(to, ['mv', '-f', `${file}.part`, file], undefined, `write ${file}`);
}

/** How many times a copy whose bytes did not all arrive is sent again. */
export const SEND_ATTEMPTS = 3;

/**
 * Bytes into a file in the pod, counted at both ends. An exec's stdin can lose data between
 * the API server and the kubelet and still end with exit code 0 (seen on Kubernetes 1.36: a
 * file written this way arrived empty), so the pod reports the size it received, and a short
 * copy is sent again — and after SEND_ATTEMPTS, an error naming both counts.
 */
async function send(
  to: PodTarget,
  file: string,
  source: () => AsyncIterable<Buffer> | Iterable<Buffer>,
  what: string,
): Promise<void> {
  let arrived = '';
  let sent = 0;
  for (let attempt = 1; attempt <= SEND_ATTEMPTS; attempt++) {
    sent = 0;
    const chunks = source();
    const counted = Readable.from(
      (async function* () {
        for await (const chunk of chunks) {
          sent += chunk.length;
          yield chunk;
        }
      })(),
    );
    arrived = (
      await run(
        to,
        ['sh', '-c', 'mkdir -p "$(dirname "$1")" && cat > "$1" && wc -c < "$1"', 'sh', file],
        counted,
        what,
      )
    ).trim();
    if (Number(arrived) === sent) return;
  }
  throw new ClusterError(
    `${what} in pod ${to.pod}: ${arrived || 'no'} of ${sent} bytes arrived, ${SEND_ATTEMPTS} times (the exec stream through the API server lost data)`,
  );
}

/** Reads one file from the pod, or null when it does not exist. */
export async function readFile(from: PodTarget, file: string): Promise<Buffer | null> {
  const result = await from.kube.exec(from.namespace, from.pod, BENCH_CONTAINER, [
    'sh',
    '-c',
    'test -f "$1" && cat "$1"',
    'sh',
    file,
  ]);
  return result.code === 0 ? result.stdout : null;
}

/** Runs a command in the pod; fails with its stderr. Returns its stdout. */
export async function run(
  to: PodTarget,
  command: string[],
  stdin?: Readable | Buffer,
  what = command.join(' '),
): Promise<string> {
  let result;
  try {
    result = await to.kube.exec(to.namespace, to.pod, BENCH_CONTAINER, command, stdin);
  } catch (error) {
    throw new ClusterError(`${what} in pod ${to.pod}: ${describeKubeError(error)}`);
  }
  if (result.code !== 0) {
    throw new ClusterError(
      `${what} in pod ${to.pod} failed (exit code ${result.code}): ${result.stderr.trim() || 'no output'}`,
    );
  }
  return result.stdout.toString();
}

/**
 * duetkit's own bundle (dist/: cli.js, the bootstrap worker, the timer's source), copied into
 * the pod so the image needs nothing but Node.js: beside this module when it runs from the
 * bundle, else the repository's dist/ (running from source: `npm run bundle` first).
 */
/** What the pod runs of the bundle: the CLI, its bootstrap worker and the timer's source. */
export const BUNDLE_FILES = ['cli.js', 'bootstrap-worker.js', 'duetkit-timer.c'];

export function bundleDir(): string {
  for (const candidate of ['./', '../../dist/']) {
    const dir = fileURLToPath(new URL(candidate, import.meta.url));
    if (existsSync(path.join(dir, 'cli.js')) && existsSync(path.join(dir, 'duetkit-timer.c'))) {
      return dir;
    }
  }
  throw new ClusterError(
    "duetkit's bundle (dist/cli.js) is missing, and a cluster run copies it into the pod; run `npm run bundle`",
  );
}

/** True when an ELF executable needs no dynamic loader (it runs in any Linux image). */
export function isStaticExecutable(file: string): boolean {
  const bytes = readFileSync(file);
  if (bytes.readUInt32BE(0) !== 0x7f454c46 || bytes[4] !== 2) return false; // ELF, 64-bit
  const programHeaders = Number(bytes.readBigUInt64LE(0x20));
  const entrySize = bytes.readUInt16LE(0x36);
  const count = bytes.readUInt16LE(0x38);
  for (let i = 0; i < count; i++) {
    if (bytes.readUInt32LE(programHeaders + i * entrySize) === 3) return false; // PT_INTERP
  }
  return true;
}
