import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { z } from 'zod';
import { scenarioSchema, type Scenario, type ScenarioInput } from './schema.js';
import { UserError } from '../errors.js';

/** A scenario file or object that does not match the schema; the message names each problem. */
export class ScenarioError extends UserError {
  constructor(message: string) {
    super(message);
    this.name = 'ScenarioError';
  }
}

/** A scenario and where its relative paths start. */
export interface LoadedScenario {
  scenario: Scenario;
  /** Absolute path of the file, or null for a scenario built in memory (`duetkit compare`). */
  file: string | null;
  /** Directory that `path` fields are relative to, and whose git repository `ref`s name. */
  baseDir: string;
}

/** Reads and validates a YAML (or JSON) scenario file. */
export async function loadScenarioFile(file: string, cwd: string): Promise<LoadedScenario> {
  const absolute = path.resolve(cwd, file);
  let text: string;
  try {
    text = await readFile(absolute, 'utf8');
  } catch (error) {
    throw new ScenarioError(`cannot read scenario ${file}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = parseYaml(text);
  } catch (error) {
    throw new ScenarioError(`${file} is not valid YAML: ${(error as Error).message}`);
  }
  return { scenario: parseScenario(raw, file), file: absolute, baseDir: path.dirname(absolute) };
}

/** Validates a scenario object; `source` names it in error messages. */
export function parseScenario(raw: unknown, source = 'scenario'): Scenario {
  const result = scenarioSchema.safeParse(raw);
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => describeIssue(issue, raw));
  throw new ScenarioError(`${source} is invalid:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
}

/** Builds a scenario from code, with the same validation and defaults as a file. */
export function scenarioFromObject(input: ScenarioInput, source = 'scenario'): Scenario {
  return parseScenario(input, source);
}

function describeIssue(issue: z.core.$ZodIssue, raw: unknown): string {
  const where = formatPath(issue.path);
  if (issue.code === 'unrecognized_keys') {
    const keys = issue.keys.map((k) => JSON.stringify(k)).join(', ');
    return `${where}: unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}; accepted: ${acceptedKeys(issue.path)}`;
  }
  const value = valueAt(raw, issue.path);
  const found = value === undefined ? 'nothing' : JSON.stringify(value);
  return `${where}: got ${found}; expected ${expectation(issue)}`;
}

function expectation(issue: z.core.$ZodIssue): string {
  switch (issue.code) {
    case 'invalid_value':
      return `one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_type':
      return issue.message.startsWith('Invalid input')
        ? `a value of type ${issue.expected}`
        : issue.message;
    case 'too_small':
    case 'too_big':
      return issue.message
        .replace(/^Too (small|big): expected number to be /, 'a number ')
        .replace(/^Too (small|big): expected /, '');
    default:
      return issue.message;
  }
}

function acceptedKeys(at: PropertyKey[]): string {
  // Walk the schema's shape along the path to list what the user could have written.
  let schema: unknown = scenarioSchema;
  for (const key of at) {
    schema = unwrap(schema);
    const def = (
      schema as { def?: { type?: string; element?: unknown; shape?: Record<string, unknown> } }
    ).def;
    if (def?.type === 'array' && typeof key === 'number') schema = def.element;
    else if (def?.shape !== undefined) schema = def.shape[String(key)];
  }
  const shape = (unwrap(schema) as { def?: { shape?: Record<string, unknown> } }).def?.shape;
  return shape === undefined ? 'see docs/scenario.md' : Object.keys(shape).join(', ');
}

function unwrap(schema: unknown): unknown {
  let current = schema as {
    def?: { type?: string; innerType?: unknown; in?: unknown; schema?: unknown };
  };
  for (let i = 0; i < 10 && current?.def !== undefined; i++) {
    const def = current.def;
    const next = def.innerType ?? def.in ?? (def.type === 'pipe' ? def.in : undefined);
    if (next === undefined) break;
    current = next as typeof current;
  }
  return current;
}

function valueAt(raw: unknown, at: PropertyKey[]): unknown {
  let value = raw;
  for (const key of at) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** `versions[1].ref` style, as users write it in YAML terms. */
export function formatPath(at: readonly PropertyKey[]): string {
  if (at.length === 0) return '(top level)';
  return at
    .map((key, i) => (typeof key === 'number' ? `[${key}]` : `${i === 0 ? '' : '.'}${String(key)}`))
    .join('');
}
