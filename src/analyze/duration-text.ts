/**
 * A duration for people: "1 h 2 min", "3 min 20 s", "12.3 s". Here rather than in report/
 * because the settle advice (settle.ts), which comparison.json carries, says it too.
 */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${+seconds.toFixed(1)} s`;
  const s = Math.round(seconds);
  if (s < 3600) return `${Math.floor(s / 60)} min ${s % 60} s`;
  return `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
}
