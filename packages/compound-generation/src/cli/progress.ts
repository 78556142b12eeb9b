// Progress on stderr: a bar redrawn in place on a terminal, plain lines (every tenth of the budget) otherwise,
// so that a log file stays readable.
import type { OptimizeProgress } from '../optimize/types.js';

const BAR = 30;
const REDRAW_MS = 100;

export class ProgressReporter {
  private lastDraw = 0;
  private lastTenth = -1;
  private drawn = false;

  constructor(
    private readonly stream: NodeJS.WriteStream,
    private readonly enabled = true,
  ) {}

  private get tty(): boolean {
    return this.stream.isTTY === true;
  }

  update(p: OptimizeProgress): void {
    if (!this.enabled) return;
    const line = describe(p);
    if (this.tty) {
      const now = Date.now();
      if (now - this.lastDraw < REDRAW_MS && p.calls_used < p.max_oracle_calls) return;
      this.lastDraw = now;
      const filled = Math.round((p.calls_used / p.max_oracle_calls) * BAR);
      const bar = `[${'#'.repeat(filled)}${'.'.repeat(BAR - filled)}]`;
      const cols = this.stream.columns ?? 100;
      this.stream.write(`\r${`${bar} ${line}`.slice(0, cols - 1)}\x1b[K`);
      this.drawn = true;
      return;
    }
    const tenth = Math.floor((p.calls_used / p.max_oracle_calls) * 10);
    if (tenth > this.lastTenth) {
      this.lastTenth = tenth;
      this.stream.write(`${line}\n`);
    }
  }

  /** Ends the bar's line (before anything else is written to the stream). */
  finish(): void {
    if (this.drawn) this.stream.write('\n');
    this.drawn = false;
  }
}

function describe(p: OptimizeProgress): string {
  const pct = ((p.calls_used / p.max_oracle_calls) * 100).toFixed(0);
  return `calls ${p.calls_used}/${p.max_oracle_calls} (${pct}%)  best ${p.best.toFixed(3)}  top-10 ${p.top10_mean.toFixed(3)}`;
}
