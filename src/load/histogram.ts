import {
  build,
  decodeFromCompressedBase64,
  encodeIntoCompressedBase64,
  type Histogram,
} from 'hdr-histogram-js';

/**
 * Latencies in an HDR histogram (Gil Tene's HdrHistogram, via hdr-histogram-js): values in
 * microseconds, 3 significant digits (every percentile within 0.1% of the recorded value),
 * from 1 µs up, resized as needed; the exact mean is kept beside it.
 */
export class LatencyHistogram {
  private readonly histogram: Histogram = build({
    bitBucketSize: 64,
    autoResize: true,
    lowestDiscernibleValue: 1,
    highestTrackableValue: 2 ** 31,
    numberOfSignificantValueDigits: 3,
    useWebAssembly: false,
  });
  private sumUs = 0;

  /** Records one value, milliseconds (kept to the microsecond). */
  record(ms: number): void {
    const us = Math.max(1, Math.round(ms * 1000));
    this.histogram.recordValue(us);
    this.sumUs += us;
  }

  get count(): number {
    return this.histogram.totalCount;
  }

  /** The value at a percentile (0–100), ms; NaN when empty. */
  percentile(p: number): number {
    if (this.count === 0) return Number.NaN;
    return this.histogram.getValueAtPercentile(p) / 1000;
  }

  summary(percentiles: readonly number[]): HistogramSummary {
    const n = this.count;
    return {
      count: n,
      meanMs: n === 0 ? Number.NaN : this.sumUs / n / 1000,
      maxMs: n === 0 ? Number.NaN : this.histogram.maxValue / 1000,
      percentiles: Object.fromEntries(percentiles.map((p) => [String(p), this.percentile(p)])),
      encoded: n === 0 ? '' : encodeIntoCompressedBase64(this.histogram),
    };
  }

  reset(): void {
    this.histogram.reset();
    this.sumUs = 0;
  }
}

/** What a phase reports of one histogram (JSON: travels between processes and into samples). */
export interface HistogramSummary {
  count: number;
  meanMs: number;
  maxMs: number;
  /** Percentile (as written, e.g. "99.9") → value, ms. */
  percentiles: Record<string, number>;
  /** The whole histogram, HdrHistogram's compressed base64 (V2) encoding; '' when empty. */
  encoded: string;
}

/** The percentile of several encoded histograms merged (ms): for reports over many phases. */
export function mergedPercentile(encoded: readonly string[], p: number): number {
  const parts = encoded.filter((e) => e !== '');
  if (parts.length === 0) return Number.NaN;
  const total = decodeFromCompressedBase64(parts[0]!, 64, false);
  for (const e of parts.slice(1)) total.add(decodeFromCompressedBase64(e, 64, false));
  return total.getValueAtPercentile(p) / 1000;
}
