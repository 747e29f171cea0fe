import { createRequire as __duetkitCreateRequire } from 'node:module';
const require = __duetkitCreateRequire(import.meta.url);

// src/harness/serve.ts
import { createInterface } from "node:readline";
async function serve(iteration, options = {}) {
  const output = options.output ?? process.stdout;
  const send = (message) => void output.write(`${JSON.stringify(message)}
`);
  const lines = createInterface({ input: options.input ?? process.stdin, crlfDelay: Infinity });
  send({ ready: true });
  for await (const line of lines) {
    const command = line.trim();
    if (command === "exit") break;
    if (command !== "go") {
      send({ error: `unknown command ${JSON.stringify(command)}; expected go or exit` });
      continue;
    }
    try {
      const start = process.hrtime.bigint();
      const results = await iteration();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (Array.isArray(results)) send({ results });
      else if (options.selfTimed === false) send({ ok: true });
      else send({ results: [{ name: options.name ?? "iteration", value: ms, unit: "ms" }] });
    } catch (error) {
      send({ error: error instanceof Error ? error.message : String(error) });
    }
  }
  lines.close();
}
export {
  serve
};
