import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { Kube } from '../../src/cluster/kube.js';
import { copyDirectory, POD_ROOT, SEND_ATTEMPTS, writeFile } from '../../src/cluster/transfer.js';

/**
 * The copies into the pod, through an exec that runs the command for real (sh, cat, tar) in a
 * temporary directory standing for the pod's /duetkit — and that, like the API server once did,
 * can lose a command's stdin while still ending with exit code 0.
 */
let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'duetkit-transfer-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** An exec that drops the stdin of the first `lossy` commands that read one. */
function localKube(lossy: number): { kube: Kube; execs: string[][] } {
  const execs: string[][] = [];
  const exec = async (
    _ns: string,
    _pod: string,
    _container: string,
    command: string[],
    stdin?: Readable | Buffer,
  ) => {
    const args = command.map((a) => a.split(POD_ROOT).join(root));
    execs.push(args);
    const child = spawn(args[0]!, args.slice(1), { stdio: ['pipe', 'pipe', 'pipe'] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => err.push(c));
    if (stdin !== undefined && lossy-- > 0) {
      // Read it to the end, send nothing.
      for await (const _ of Readable.from(Buffer.isBuffer(stdin) ? [stdin] : stdin));
      child.stdin.end();
    } else if (stdin !== undefined) {
      (Buffer.isBuffer(stdin) ? Readable.from([stdin]) : stdin).pipe(child.stdin);
    } else {
      child.stdin.end();
    }
    const code = await new Promise<number>((r) => child.on('close', (c) => r(c ?? 1)));
    return { code, stdout: Buffer.concat(out), stderr: Buffer.concat(err).toString() };
  };
  return { kube: { server: 'https://test', exec } as unknown as Kube, execs };
}

const target = (kube: Kube) => ({ kube, namespace: 'ns', pod: 'duetkit-bench-x' });

it('writes a file whole, and sends it again when its bytes were lost on the way', async () => {
  const { kube, execs } = localKube(1);
  const content = Buffer.from(JSON.stringify({ name: 'scenario', iterations: 3 }));
  await writeFile(target(kube), `${POD_ROOT}/scenario.json`, content);
  expect(readFileSync(path.join(root, 'scenario.json'))).toEqual(content);
  // The lost copy, the copy again, the rename: the half-written file is never the real one.
  expect(execs).toHaveLength(3);
});

it('an exec that keeps losing the bytes: an error naming both counts, not an empty file', async () => {
  const { kube } = localKube(SEND_ATTEMPTS);
  await expect(
    writeFile(target(kube), `${POD_ROOT}/scenario.json`, Buffer.from('{"a":1}')),
  ).rejects.toThrow(
    `write ${POD_ROOT}/scenario.json in pod duetkit-bench-x: 0 of 7 bytes arrived, ${SEND_ATTEMPTS} times (the exec stream through the API server lost data)`,
  );
  expect(() => readFileSync(path.join(root, 'scenario.json'))).toThrow(/ENOENT/);
});

it('copies a directory (without .git) through a tar that arrived whole', async () => {
  const source = mkdtempSync(path.join(os.tmpdir(), 'duetkit-transfer-src-'));
  try {
    mkdirSync(path.join(source, 'lib'));
    mkdirSync(path.join(source, '.git'));
    writeFileSync(path.join(source, 'bench.js'), 'console.log(1)\n');
    writeFileSync(path.join(source, 'lib', 'a.js'), 'x'.repeat(100_000));
    writeFileSync(path.join(source, '.git', 'HEAD'), 'ref: main\n');
    const { kube } = localKube(2);
    await copyDirectory(target(kube), source, `${POD_ROOT}/versions/base`);
    const copied = path.join(root, 'versions', 'base');
    expect(readFileSync(path.join(copied, 'bench.js'), 'utf8')).toBe('console.log(1)\n');
    expect(readFileSync(path.join(copied, 'lib', 'a.js'), 'utf8')).toHaveLength(100_000);
    expect(() => readFileSync(path.join(copied, '.git', 'HEAD'))).toThrow(/ENOENT/);
    // The archive is removed once unpacked.
    expect(() => readFileSync(path.join(root, '.incoming', 'base.tar'))).toThrow(/ENOENT/);
  } finally {
    rmSync(source, { recursive: true, force: true });
  }
});
