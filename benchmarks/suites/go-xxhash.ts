import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, writeFileSync, chmodSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * github.com/cespare/xxhash/v2 (pinned), fetched through the Go module proxy at benchmark time
 * into a cache outside the repository (never committed): `base`, and `slow`, the same with
 * extra work injected in one function, Sum64String, which hashes a 32nd of its input once
 * more (about +3% for inputs of 32 bytes and more, nothing for 4B and 16B): only
 * BenchmarkSum64String's sub-benchmarks of 100B and more change.
 */
export const GO_XXHASH = { module: 'github.com/cespare/xxhash/v2', version: 'v2.3.0' };

export function cacheDir(): string {
  return process.env.DUETKIT_BENCH_CACHE ?? path.join(os.homedir(), '.cache', 'duetkit-bench');
}

export function prepareGoXxhash(): { base: string; slow: string; gomodcache: string } {
  const root = path.join(cacheDir(), `go-xxhash-${GO_XXHASH.version}`);
  const gomodcache = path.join(cacheDir(), 'gomodcache');
  const base = path.join(root, 'base');
  const slow = path.join(root, 'slow');
  if (existsSync(path.join(slow, 'go.mod'))) return { base, slow, gomodcache };
  const env = { ...process.env, GOMODCACHE: gomodcache, GOFLAGS: '-modcacherw' };
  const out = execFileSync(
    'go',
    ['mod', 'download', '-json', `${GO_XXHASH.module}@${GO_XXHASH.version}`],
    { env, encoding: 'utf8' },
  );
  const dir = (JSON.parse(out) as { Dir: string }).Dir;
  mkdirSync(root, { recursive: true });
  for (const target of [base, slow]) {
    cpSync(dir, target, { recursive: true });
    execFileSync('chmod', ['-R', 'u+w', target]);
  }
  const file = path.join(slow, 'xxhash_unsafe.go');
  const source = readFileSync(file, 'utf8');
  const injected = source.replace(
    'func Sum64String(s string) uint64 {\n\tb := *(*[]byte)(unsafe.Pointer(&sliceHeader{s, len(s)}))\n\treturn Sum64(b)\n}',
    'func Sum64String(s string) uint64 {\n\tb := *(*[]byte)(unsafe.Pointer(&sliceHeader{s, len(s)}))\n\tif n := len(b) / 32; n > 0 {\n\t\tinjectedSink ^= Sum64(b[:n])\n\t}\n\treturn Sum64(b)\n}\n\n// injectedSink keeps the injected extra work (duetkit bench:suites) from being optimised away.\nvar injectedSink uint64',
  );
  if (injected === source) throw new Error('xxhash: Sum64String not found where expected');
  writeFileSync(file, injected);
  chmodSync(file, 0o644);
  return { base, slow, gomodcache };
}
