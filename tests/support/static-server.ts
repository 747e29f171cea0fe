import { spawn, type ChildProcess } from 'node:child_process';

/**
 * `python3 -m http.server` on 127.0.0.1 (a free port) serving `dir`: how the docs say to look
 * at a checkout of the history branch, and as plain a static host as GitHub Pages.
 */
export async function servePython(dir: string): Promise<{ url: string; close(): Promise<void> }> {
  const child: ChildProcess = spawn(
    'python3',
    ['-u', '-m', 'http.server', '0', '--bind', '127.0.0.1'],
    {
      cwd: dir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const port = await new Promise<number>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(
      () => reject(new Error(`python3 -m http.server did not start: ${seen}`)),
      10_000,
    );
    const onData = (chunk: Buffer): void => {
      seen += chunk.toString();
      const m = /port (\d+)/.exec(seen);
      if (m !== null) {
        clearTimeout(timer);
        resolve(Number(m[1]));
      }
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', (chunk: Buffer) => (seen += chunk.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`python3 -m http.server exited (${code}): ${seen}`));
    });
  });
  child.removeAllListeners('exit');
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
