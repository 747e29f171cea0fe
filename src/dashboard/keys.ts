/// <reference lib="dom" />

/**
 * A benchmark's file key as src/history/layout.ts makes it (`b-` and the first 12 hex digits
 * of its name's sha256), for a deep link to a benchmark the index no longer lists.
 */
export async function benchmarkKeyOf(name: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(name));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, '0')).join('');
  return `b-${hex.slice(0, 12)}`;
}
