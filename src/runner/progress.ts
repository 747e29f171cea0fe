import type { Progress } from './experiment.js';

/** One line of progress: bar, trials done, elapsed time and estimated time left. Pure. */
export function renderProgress(progress: Progress, width = 30): string {
  const fraction = progress.total === 0 ? 1 : Math.min(1, progress.done / progress.total);
  const filled = Math.round(fraction * width);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(width - filled)}`;
  const eta = progress.etaMs === null ? '?' : formatSeconds(progress.etaMs);
  // Open-ended (precision-based stopping): no bar to fill, only the count and the bound.
  const head = progress.total === progress.done && progress.etaMs !== 0 ? '' : `[${bar}] `;
  return `${head}${progress.done}/${progress.total} trials  elapsed ${formatSeconds(progress.elapsedMs)}  ETA ${eta}`;
}

function formatSeconds(ms: number): string {
  const seconds = Math.round(ms / 1000);
  return seconds < 60
    ? `${seconds}s`
    : `${Math.floor(seconds / 60)}m${String(seconds % 60).padStart(2, '0')}s`;
}
