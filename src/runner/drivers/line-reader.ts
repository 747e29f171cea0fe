/**
 * Turns stdout chunks into protocol lines (JSON objects) and hands them to whoever waits.
 * Lines that do not start with `{` are a program's own chatter and are skipped.
 */
export class LineReader {
  private buffer = '';
  private readonly lines: string[] = [];
  private waiter: ((line: string | null) => void) | null = null;
  private ended = false;

  push(chunk: string): void {
    this.buffer += chunk;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      if (line.startsWith('{')) this.deliver(line);
    }
  }

  end(): void {
    this.ended = true;
    this.waiter?.(null);
    this.waiter = null;
  }

  /** The next line, or null when the stream ended first. */
  next(): Promise<string | null> {
    const line = this.lines.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.ended) return Promise.resolve(null);
    return new Promise((resolve) => (this.waiter = resolve));
  }

  private deliver(line: string): void {
    if (this.waiter === null) {
      this.lines.push(line);
      return;
    }
    const waiter = this.waiter;
    this.waiter = null;
    waiter(line);
  }
}
