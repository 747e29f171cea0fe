import type { Finding } from './assess.js';

const MARK: Record<Finding['status'], string> = { ok: '✓', warn: '!', no: '✗' };

/** The findings as text, one line each with its details indented below. Pure. */
export function renderDoctorText(findings: readonly Finding[]): string {
  const lines: string[] = [];
  for (const f of findings) {
    lines.push(`${MARK[f.status]} ${f.topic}: ${f.text}`);
    for (const detail of f.details) lines.push(`    ${detail}`);
  }
  return `${lines.join('\n')}\n`;
}
