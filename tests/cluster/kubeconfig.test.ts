import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadKubeConfig } from '../../src/cluster/existing.js';
import { KUBECONFIG_CONTENT_ENV } from '../../src/cluster/env.js';
import { ClusterError } from '../../src/cluster/types.js';

/**
 * Where an existing cluster's kubeconfig comes from — read from the run's environment, not
 * this process's (a caller such as the action or a benchmark passes its own), and never a
 * silent fallback to http://localhost:8080 when there is none.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'duetkit-kubeconfig-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function kubeconfig(name: string, server: string): string {
  const file = path.join(dir, `${name}.yaml`);
  writeFileSync(
    file,
    [
      'apiVersion: v1',
      'kind: Config',
      `current-context: ${name}`,
      `clusters: [{name: ${name}, cluster: {server: '${server}'}}]`,
      `users: [{name: ${name}, user: {token: t-${name}}}]`,
      `contexts: [{name: ${name}, context: {cluster: ${name}, user: ${name}}}]`,
      '',
    ].join('\n'),
  );
  return file;
}

const spec = (kubeconfigFile?: string, context?: string) => ({
  existing: {
    ...(kubeconfigFile === undefined ? {} : { kubeconfig: kubeconfigFile }),
    ...(context === undefined ? {} : { context }),
  },
});

it("reads $KUBECONFIG from the run's environment, merging its files as kubectl does", () => {
  const a = kubeconfig('first', 'https://127.0.0.1:6443');
  const b = kubeconfig('second', 'https://127.0.0.2:6443');
  const env = { KUBECONFIG: `${a}${path.delimiter}${b}`, HOME: dir };
  expect(process.env.KUBECONFIG).not.toBe(env.KUBECONFIG);
  const config = loadKubeConfig(spec(), dir, env);
  expect(config.getCurrentCluster()?.server).toBe('https://127.0.0.1:6443');
  expect(config.getContexts().map((c) => c.name)).toEqual(['first', 'second']);
  const other = loadKubeConfig(spec(undefined, 'second'), dir, env);
  expect(other.getCurrentCluster()?.server).toBe('https://127.0.0.2:6443');
});

it('falls back to ~/.kube/config of the environment, and says so when there is none', () => {
  expect(() => loadKubeConfig(spec(), dir, { HOME: dir })).toThrow(ClusterError);
  expect(() => loadKubeConfig(spec(), dir, { HOME: dir })).toThrow(
    `cannot read the kubeconfig: $KUBECONFIG is not set and ${path.join(dir, '.kube', 'config')} does not exist; give one with cluster.existing.kubeconfig, the action's kubeconfig input, or $KUBECONFIG`,
  );
  mkdirSync(path.join(dir, '.kube'));
  writeFileSync(
    path.join(dir, '.kube', 'config'),
    readFileSync(kubeconfig('home', 'https://127.0.0.3:6443'), 'utf8'),
  );
  expect(loadKubeConfig(spec(), dir, { HOME: dir }).getCurrentCluster()?.server).toBe(
    'https://127.0.0.3:6443',
  );
});

it('the scenario’s file, then the secret’s content, take precedence', () => {
  const a = kubeconfig('first', 'https://127.0.0.1:6443');
  const b = kubeconfig('second', 'https://127.0.0.2:6443');
  expect(
    loadKubeConfig(spec('second.yaml'), dir, { KUBECONFIG: a }).getCurrentCluster()?.server,
  ).toBe('https://127.0.0.2:6443');
  const content = readFileSync(a, 'utf8');
  expect(
    loadKubeConfig(spec(b), dir, { [KUBECONFIG_CONTENT_ENV]: content }).getCurrentCluster()?.server,
  ).toBe('https://127.0.0.1:6443');
});
