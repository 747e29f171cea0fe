import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Assumed when sysfs says nothing (containers without /sys, other systems): a large LLC. */
export const FALLBACK_LLC_BYTES = 64 * 1024 * 1024;

/**
 * Size of the last-level cache in bytes, from `/sys/devices/system/cpu/cpu0/cache/index*`
 * (the entry with the highest `level` that holds data: `Unified` or `Data`). Null when sysfs
 * has no cache description.
 */
export function lastLevelCacheBytes(dir = '/sys/devices/system/cpu/cpu0/cache'): number | null {
  let entries: string[];
  try {
    entries = readdirSync(dir).filter((e) => /^index\d+$/.test(e));
  } catch {
    return null;
  }
  let best: { level: number; bytes: number } | null = null;
  for (const entry of entries) {
    const read = (name: string): string | null => {
      try {
        return readFileSync(path.join(dir, entry, name), 'utf8').trim();
      } catch {
        return null;
      }
    };
    const level = Number(read('level'));
    const type = read('type');
    const bytes = parseCacheSize(read('size') ?? '');
    if (!Number.isInteger(level) || bytes === null || type === 'Instruction') continue;
    if (best === null || level > best.level || (level === best.level && bytes > best.bytes)) {
      best = { level, bytes };
    }
  }
  return best?.bytes ?? null;
}

/** `32768K`, `1M`, `512` (bytes) → bytes; null for anything else. */
export function parseCacheSize(text: string): number | null {
  const match = /^(\d+)\s*([KMG]?)$/i.exec(text.trim());
  if (match === null) return null;
  const scale = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 }[match[2]!.toUpperCase()]!;
  return Number(match[1]) * scale;
}
