import { createRequire } from 'node:module';
import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * GitHub's published OpenAPI description (@octokit/openapi) as request/response validators:
 * the operation of a method + path, and ajv checks of its parameters and JSON bodies.
 */
const require = createRequire(import.meta.url);
const SPEC_FILE = require.resolve('@octokit/openapi/generated/api.github.com.json');
const DOC_ID = 'https://duetkit.test/api.github.com.json';

type Json = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema: Json;
}
export interface Operation {
  operationId: string;
  template: string;
  method: string;
  pathParams: Record<string, string>;
  parameters: Parameter[];
  requestSchema: Json | null;
  responses: Record<string, Json>;
}

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

export interface OpenApi {
  find(method: string, pathname: string): Operation | null;
  /** Problems with the value against a schema of the spec; [] when valid. */
  check(schema: Json, value: unknown): string[];
  /** The operation's example body for a status (`components/examples` resolved). */
  example(operation: Operation, status: string): Json;
}

let cached: OpenApi | null = null;

export function loadOpenApi(): OpenApi {
  if (cached !== null) return cached;
  const spec = JSON.parse(readFileSync(SPEC_FILE, 'utf8')) as {
    paths: Record<string, Record<string, Json>>;
    components: Json;
  };
  const ajv = new Ajv({ strict: false, validateSchema: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: withoutUntypedNullable(spec.components) });
  const compiled = new Map<string, ValidateFunction>();
  const resolve = <T>(value: T): T => {
    let current = value as Json;
    while (typeof current?.$ref === 'string') {
      const parts = (current.$ref as string).replace(/^#\//, '').split('/');
      current = parts.reduce<Json>((node, key) => node[key] as Json, spec as unknown as Json);
    }
    return current as T;
  };
  const routes = Object.entries(spec.paths).map(([template, item]) => ({
    template,
    item,
    names: [...template.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!),
    regex: new RegExp(`^${template.replace(/\{[^}]+\}/g, '([^/]+)')}$`),
  }));
  cached = {
    find(method, pathname) {
      for (const route of routes) {
        const match = route.regex.exec(pathname);
        const op = route.item[method.toLowerCase()] as Json | undefined;
        if (match === null || op === undefined) continue;
        const body = (op.requestBody as Json | undefined)?.content as Json | undefined;
        return {
          operationId: op.operationId as string,
          template: route.template,
          method,
          pathParams: Object.fromEntries(
            route.names.map((n, i) => [n, decodeURIComponent(match[i + 1]!)]),
          ),
          parameters: ((op.parameters as Json[] | undefined) ?? []).map((p) =>
            resolve(p),
          ) as unknown as Parameter[],
          requestSchema:
            ((body?.['application/json'] as Json | undefined)?.schema as Json | undefined) ?? null,
          responses: op.responses as Record<string, Json>,
        };
      }
      return null;
    },
    check(schema, value) {
      const key = JSON.stringify(schema);
      let validate = compiled.get(key);
      if (validate === undefined) {
        const rebased = JSON.parse(key.replaceAll('"#/components/', `"${DOC_ID}#/components/`));
        validate = ajv.compile(withoutUntypedNullable(rebased) as Json);
        compiled.set(key, validate);
      }
      if (validate(value)) return [];
      return (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message}`);
    },
    example(operation, status) {
      const content = (resolve(operation.responses[status]!) as Json).content as Json;
      const examples = (content['application/json'] as Json).examples as Json;
      return structuredClone((resolve(examples.default) as Json).value as Json);
    },
  };
  return cached;
}

/**
 * OpenAPI 3.0's `nullable: true` beside `allOf`/`anyOf` and no `type` (GitHub's issue schema
 * has them: `milestone`, `pull_request`...) is not JSON Schema, and ajv refuses to compile it:
 * such a node becomes `anyOf: [null, the rest]`, which is what the description means.
 */
function withoutUntypedNullable(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutUntypedNullable);
  if (node === null || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [k, v] of Object.entries(node as Json)) out[k] = withoutUntypedNullable(v);
  if (out.nullable === true && out.type === undefined) {
    const { nullable: _nullable, ...rest } = out;
    return { anyOf: [{ type: 'null' }, rest] };
  }
  return out;
}
