import { mkdtemp, mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { lastLevelCacheBytes, parseCacheSize } from '../../src/noise/llc.js';
import { noiseActiveAt, parseSchedule, resolveNoiseOptions } from '../../src/noise/options.js';

describe('noise options', () => {
  it('reads schedules and refuses backwards or malformed ones', () => {
    expect(parseSchedule('20s-50s')).toEqual({ start: 20, stop: 50 });
    expect(parseSchedule('0-1m')).toEqual({ start: 0, stop: 60 });
    expect(() => parseSchedule('50s-20s')).toThrow(/--schedule: got "50s-20s"/);
    expect(() => parseSchedule('20s')).toThrow(/like 20s-50s/);
  });

  it('is on only inside the schedule and before the end', () => {
    const o = resolveNoiseOptions({ duration: 60, schedule: { start: 20, stop: 50 } });
    expect([0, 19.9, 20, 49.9, 50, 59].map((t) => noiseActiveAt(o, t))).toEqual([
      false,
      false,
      true,
      true,
      false,
      false,
    ]);
    expect(noiseActiveAt(resolveNoiseOptions({ duration: 5 }), 5)).toBe(false);
  });

  it('names the option, the bad value and what is accepted', () => {
    expect(() => resolveNoiseOptions({ duration: 5, threads: 0 })).toThrow(
      /--threads: got 0; expected an integer from 1 to 1024/,
    );
    expect(() => resolveNoiseOptions({ duration: 5, load: 0 })).toThrow(
      /--load: got 0; expected a share/,
    );
    expect(() => resolveNoiseOptions({ duration: 10, schedule: { start: 10, stop: 20 } })).toThrow(
      /after the end of --duration 10 s/,
    );
  });

  it('finds the last-level cache in sysfs', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'duetkit-llc-'));
    const entries = [
      ['index0', '1', 'Data', '32K'],
      ['index1', '1', 'Instruction', '32K'],
      ['index2', '2', 'Unified', '1024K'],
      ['index3', '3', 'Unified', '32768K'],
    ];
    for (const [name, level, type, size] of entries) {
      await mkdir(path.join(dir, name!));
      await writeFile(path.join(dir, name!, 'level'), `${level}\n`);
      await writeFile(path.join(dir, name!, 'type'), `${type}\n`);
      await writeFile(path.join(dir, name!, 'size'), `${size}\n`);
    }
    expect(lastLevelCacheBytes(dir)).toBe(32 * 2 ** 20);
    expect(lastLevelCacheBytes(path.join(dir, 'missing'))).toBeNull();
    expect(parseCacheSize('1M')).toBe(2 ** 20);
    expect(parseCacheSize('lots')).toBeNull();
  });
});
