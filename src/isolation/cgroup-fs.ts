import { spawn } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { mkdir, readFile, rmdir, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * The few operations on a cgroup filesystem duetkit needs. Directly as root, or through
 * `sudo -n` where the hierarchy belongs to root (GitHub's runners); tests may point it at a
 * plain directory.
 */
export interface CgroupFs {
  readonly viaSudo: boolean;
  mkdir(dir: string): Promise<void>;
  write(file: string, value: string): Promise<void>;
  read(file: string): Promise<string>;
  rmdir(dir: string): Promise<void>;
}

export function directCgroupFs(): CgroupFs {
  return {
    viaSudo: false,
    mkdir: async (dir) => void (await mkdir(dir)),
    // cgroupfs rejects a value split over several writes: one write per call.
    write: (file, value) => writeFile(file, value),
    read: (file) => readFile(file, 'utf8'),
    rmdir: (dir) => rmdir(dir),
  };
}

/** Non-interactive sudo; fails at once instead of prompting for a password. */
export function sudoCgroupFs(): CgroupFs {
  return {
    viaSudo: true,
    mkdir: (dir) => sudo(['mkdir', dir]),
    write: (file, value) => sudo(['tee', file], value),
    read: (file) => readFile(file, 'utf8'),
    rmdir: (dir) => sudo(['rmdir', dir]),
  };
}

/** True when `sudo -n` works without a password. */
export async function canSudo(): Promise<boolean> {
  return sudo(['true']).then(
    () => true,
    () => false,
  );
}

function sudo(args: string[], input?: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('sudo', ['-n', ...args], { stdio: ['pipe', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`sudo -n ${args.join(' ')}: ${stderr.trim()}`)),
    );
    child.stdin.end(input ?? '');
  });
}

/** Pids listed in a cgroup's `cgroup.procs`. */
export async function cgroupPids(fs: CgroupFs, dir: string): Promise<number[]> {
  const text = await fs.read(path.join(dir, 'cgroup.procs')).catch(() => '');
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map(Number);
}

/**
 * Kills everything left in a cgroup (a benchmark's whole process tree lives there, however it
 * forked) and removes it. Retries while the kernel is still reaping the killed processes.
 */
export async function emptyAndRemove(fs: CgroupFs, dir: string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const pids = await cgroupPids(fs, dir);
    for (const pid of pids) {
      // Never this process (the harness may have been in the group): the removal then fails
      // with the error below instead.
      if (pid === process.pid) continue;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone between reading the list and the kill
      }
    }
    try {
      await fs.rmdir(dir);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
  throw new Error(`could not remove cgroup ${dir}: processes keep running in it`);
}

/** Finds where a cgroup filesystem is mounted, from /proc/self/mountinfo. */
export async function findMount(
  fstype: 'cgroup' | 'cgroup2',
  option?: string,
  mountinfo = '/proc/self/mountinfo',
): Promise<string | null> {
  const text = await readFile(mountinfo, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const [left, right] = line.split(' - ');
    if (left === undefined || right === undefined) continue;
    const [type, , superOptions = ''] = right.split(' ');
    if (type !== fstype) continue;
    if (option !== undefined && !superOptions.split(',').includes(option)) continue;
    return left.split(' ')[4] ?? null;
  }
  return null;
}

/** This process's cgroup path in a hierarchy (`/` for the root), from /proc/self/cgroup. */
export async function ownCgroup(controller: string | null, file = '/proc/self/cgroup') {
  const text = await readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    const [, controllers, cgroupPath] = line.split(':');
    if (cgroupPath === undefined) continue;
    if (
      controller === null ? line.startsWith('0::') : controllers!.split(',').includes(controller)
    ) {
      return cgroupPath;
    }
  }
  return null;
}

/**
 * A name unique to this run, with the pid so a sweeper can tell whether its owner lives, and
 * the pid namespace that pid belongs to (`ns<inode>`): a run inside a container (a kind node, a
 * pod) shares the host's cgroup tree but not its pids, and must neither take the host's live
 * runs for dead nor be taken for dead by them.
 */
export function groupName(): string {
  return `duetkit-${process.pid}-ns${pidNamespace() ?? 0}-${Date.now().toString(36)}`;
}

/** The inode of this process's pid namespace (`pid:[4026531836]`), null where unknown. */
export function pidNamespace(): string | null {
  try {
    return /\[(\d+)\]/.exec(readlinkSync('/proc/self/ns/pid'))?.[1] ?? null;
  } catch {
    return null;
  }
}

/**
 * Whether a group named by `groupName` belongs to a run that has ended: its pid is gone, in
 * this pid namespace. A group of another namespace is not this process's to judge (null);
 * names without a namespace (older runs) are judged by their pid alone.
 */
export function ownerEnded(name: string, ownNamespace: string | null = pidNamespace()): boolean {
  const match = /^duetkit-(\d+)-(?:ns(\d+)-)?/.exec(name);
  if (match === null) return false;
  const namespace = match[2];
  if (namespace !== undefined && namespace !== '0' && namespace !== ownNamespace) return false;
  try {
    process.kill(Number(match[1]), 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'EPERM';
  }
}
