import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface BundleRun {
  status: number | null;
  stdout: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * Runs the bundled main step as the runner would: inputs as INPUT_* variables, the event in
 * a file, outputs and the summary through the runner's files.
 */
export function runBundle(
  dist: string,
  options: {
    cwd: string;
    inputs: Record<string, string>;
    event?: { name: string; payload: Record<string, unknown> };
    apiUrl?: string;
  },
): Promise<BundleRun> {
  const files = mkdtempSync(path.join(os.tmpdir(), 'duetkit-runner-'));
  const file = (name: string): string => {
    const f = path.join(files, name);
    writeFileSync(f, '');
    return f;
  };
  const eventFile = file('event.json');
  writeFileSync(eventFile, JSON.stringify(options.event?.payload ?? {}));
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    GITHUB_ACTIONS: 'true',
    GITHUB_EVENT_NAME: options.event?.name ?? 'push',
    GITHUB_EVENT_PATH: eventFile,
    GITHUB_REPOSITORY: 'octo/bench',
    GITHUB_API_URL: options.apiUrl ?? 'http://127.0.0.1:9',
    GITHUB_OUTPUT: file('output'),
    GITHUB_STEP_SUMMARY: file('summary'),
    GITHUB_STATE: file('state'),
    RUNNER_TEMP: files,
  };
  for (const [name, value] of Object.entries(options.inputs)) {
    env[`INPUT_${name.toUpperCase()}`] = value;
  }
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path.join(dist, 'index.js')], {
      cwd: options.cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.on('close', (status) => {
      resolve({
        status,
        stdout,
        outputs: parseOutputs(readFileSync(env.GITHUB_OUTPUT!, 'utf8')),
        summary: readFileSync(env.GITHUB_STEP_SUMMARY!, 'utf8'),
      });
    });
  });
}

/** The runner's `name<<delimiter ... delimiter` output file format. */
function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const re = /^([^<\n]+)<<(\S+)\n([\s\S]*?)\n\2$/gm;
  for (const match of text.matchAll(re)) outputs[match[1]!] = match[3]!;
  return outputs;
}
