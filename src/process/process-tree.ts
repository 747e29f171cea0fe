import { readdirSync, readFileSync } from 'node:fs';

/**
 * The process `root` and every process descended from it, root first, from /proc: a server
 * started through `npm start` or a shell is a tree, and a stopped server must leave none of
 * it behind (also children that left the process group with setsid).
 */
export function processTree(root: number, proc = '/proc'): number[] {
  const children = new Map<number, number[]>();
  let entries: string[];
  try {
    entries = readdirSync(proc);
  } catch {
    return [root];
  }
  for (const name of entries) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`${proc}/${name}/stat`, 'utf8');
    } catch {
      continue; // it ended meanwhile
    }
    // The command name (field 2) is in parentheses and may hold spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const list = children.get(ppid) ?? [];
    list.push(Number(name));
    children.set(ppid, list);
  }
  const tree: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const pid = queue.shift()!;
    if (tree.includes(pid)) continue;
    tree.push(pid);
    queue.push(...(children.get(pid) ?? []));
  }
  return tree;
}

/** True while `pid` exists (and is not a zombie waiting for its parent). */
export function isAlive(pid: number, proc = '/proc'): boolean {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}

/** Sends `signal` to each pid (and to the process group of the first); gone ones are skipped. */
export function signalAll(pids: readonly number[], signal: NodeJS.Signals, group?: number): void {
  if (group !== undefined) {
    try {
      process.kill(-group, signal);
    } catch {
      // the group is gone
    }
  }
  for (const pid of pids) {
    try {
      process.kill(pid, signal);
    } catch {
      // already gone
    }
  }
}
