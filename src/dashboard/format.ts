import { formatPercent, formatValue } from '../report/numbers.js';

export { formatPercent, formatValue };

/** Verdict codes of the derived files (src/history/derive.ts VERDICT_CODES). */
export const VERDICTS = ['unchanged', 'regression', 'improvement', 'inconclusive'] as const;
export type VerdictName = (typeof VERDICTS)[number];

export const VERDICT_COLOURS: Record<VerdictName, string> = {
  unchanged: '#6b7280',
  regression: '#dc2626',
  improvement: '#16a34a',
  inconclusive: '#d97706',
};

export function verdictName(code: number | null | undefined): VerdictName | null {
  return code === null || code === undefined ? null : (VERDICTS[code] ?? null);
}

/** "2026-03-15 12:00" (UTC). */
export function formatTime(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16).replace('T', ' ');
}

/** "[+1.20%, +3.40%]". */
export function formatInterval(lower: number, upper: number): string {
  return `[${formatPercent(lower)}, ${formatPercent(upper)}]`;
}
