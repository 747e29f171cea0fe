import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import {
  buildGoBinary,
  calibrateGo,
  calibrationEnv,
  fixedIterations,
  parseGoTest,
} from '../../src/suite/prepare-go.js';
import { requireTool } from './helpers.js';

// A benchmark whose first call loads its data (40 ms, once) and then costs ~2 ms an op: go's
// ramp-up to 20 ms stops at its first, cold run (b.N = 1, ~42 ms), which is what a fixed
// -benchtime 1x would then measure in every pair.
const COLD_FIRST = `package cold

import (
	"runtime"
	"sync"
	"testing"
	"time"
)

var once sync.Once

func spin(d time.Duration) {
	for end := time.Now().Add(d); time.Now().Before(end); {
	}
}

func BenchmarkColdFirst(b *testing.B) {
	once.Do(func() { spin(40 * time.Millisecond) })
	for i := 0; i < b.N; i++ {
		spin(2 * time.Millisecond)
	}
}

func BenchmarkShort(b *testing.B) {
	for i := 0; i < b.N; i++ {
		spin(time.Microsecond)
	}
}

// Costs a millisecond an op for each of GOMAXPROCS: what b.RunParallel and go test's GC
// make of a process's CPUs, exaggerated.
func BenchmarkPerProc(b *testing.B) {
	for i := 0; i < b.N; i++ {
		spin(time.Duration(runtime.GOMAXPROCS(0)) * time.Millisecond)
	}
}
`;

describe('go suite calibration: a cold first run is not the time per op', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-go-cold-'));
    await writeFile(path.join(dir, 'go.mod'), 'module cold\n\ngo 1.21\n');
    await writeFile(path.join(dir, 'cold_test.go'), COLD_FIRST);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('times again from 2x the benchmarks whose ramp-up stopped at b.N = 1, and never runs 1x', async () => {
    requireTool(['go', 'version'], 'Go');
    const go = parseGoTest(['go', 'test', '-bench', '.']);
    const context = {
      version: 'base',
      cwd: dir,
      env: process.env,
      signal: new AbortController().signal,
    };
    const bin = await buildGoBinary(go, path.join(dir, 'out'), context);
    const calibrated = await calibrateGo(bin, go, 0.02, context);
    const cold = calibrated.find((c) => c.name === 'BenchmarkColdFirst')!;
    const short = calibrated.find((c) => c.name === 'BenchmarkShort')!;
    // warm: ~2 ms an op, not the ~42 ms of the first call (generous bounds for a busy VM)
    expect(cold.nsPerOp).toBeGreaterThan(1.5e6);
    expect(cold.nsPerOp).toBeLessThan(20e6);
    expect(short.nsPerOp).toBeLessThan(1e5);
    // the fixed count for a 20 ms iteration: from the warm time, and at least 2
    expect(fixedIterations(cold.nsPerOp, 0.02)).toBeGreaterThanOrEqual(2);
    expect(fixedIterations(1e9, 0.02)).toBe(2);
  }, 120_000);

  it('calibrates with the GOMAXPROCS a process pinned to a slot has', async () => {
    requireTool(['go', 'version'], 'Go');
    const go = parseGoTest(['go', 'test', '-bench', 'PerProc']);
    const { GOMAXPROCS: _, ...env } = process.env;
    const bin = await buildGoBinary(go, path.join(dir, 'out-procs'), {
      version: 'base',
      cwd: dir,
      env,
      signal: new AbortController().signal,
    });
    const at = async (slot: string) =>
      (
        await calibrateGo(bin, go, 0.02, {
          version: 'base',
          cwd: dir,
          env: calibrationEnv(env, slot),
          signal: new AbortController().signal,
        })
      ).find((c) => c.name === 'BenchmarkPerProc')!.nsPerOp;
    // one CPU a slot: 1 ms an op, whatever this machine's CPU count; two: 2 ms
    expect(await at('1')).toBeGreaterThan(0.9e6);
    expect(await at('1')).toBeLessThan(1.6e6);
    expect(await at('0-1')).toBeGreaterThan(1.9e6);
  }, 120_000);
});
