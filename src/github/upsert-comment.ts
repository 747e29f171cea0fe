import { escapeCommentValue } from '../report/escape.js';
import type { GitHubApi } from './api.js';

/** When to post: `on-change` only when a verdict is not `unchanged` (updates always happen). */
export type CommentPolicy = 'always' | 'on-change' | 'never';

export interface UpsertOptions {
  issue: number;
  /** The suite: one comment each, found again by its hidden marker. */
  suite: string;
  body: string;
  policy: CommentPolicy;
  /** Whether anything is not `unchanged` (regression, improvement, inconclusive, error). */
  changed: boolean;
}

export interface UpsertResult {
  action: 'created' | 'updated' | 'skipped';
  url: string | null;
  /** Why nothing was posted, for the log. */
  reason?: string;
}

/** The hidden first line that identifies a suite's comment. */
export function commentMarker(suite: string): string {
  return `<!-- duetkit:comment suite=${escapeCommentValue(suite)} -->`;
}

/**
 * Creates the suite's comment, or updates the one already there (found by its marker: never
 * a second one). With `on-change`, nothing new is posted while everything is unchanged, but
 * an existing comment is still updated so it never shows stale results.
 */
export async function upsertComment(api: GitHubApi, options: UpsertOptions): Promise<UpsertResult> {
  if (options.policy === 'never') return { action: 'skipped', url: null, reason: 'comment: never' };
  const marker = commentMarker(options.suite);
  const body = `${marker}\n${options.body}`;
  const existing = (await api.listComments(options.issue)).find((c) => c.body.startsWith(marker));
  if (existing !== undefined) {
    const updated = await api.updateComment(existing.id, body);
    return { action: 'updated', url: updated.url };
  }
  if (options.policy === 'on-change' && !options.changed) {
    return { action: 'skipped', url: null, reason: 'comment: on-change, and nothing changed' };
  }
  const created = await api.createComment(options.issue, body);
  return { action: 'created', url: created.url };
}
