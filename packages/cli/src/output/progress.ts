import type { Io } from '../io.js';

/** A progress bar on stderr; silent when stderr is not a terminal (scripts and pipes see nothing). */
export interface Progress {
  /** Sets the done count (of `total`) and an optional label (the asset being read, ...). */
  update(done: number, label?: string): void;
  /** Clears the bar. */
  done(): void;
}

const WIDTH = 30;
const MIN_INTERVAL_MS = 50;

/** A bar `label [#####.....]  45%  450/1000` redrawn in place at most every 50 ms. */
export function progress(io: Io, title: string, total: number): Progress {
  if (!io.stderrTty || total <= 0) return { update: () => {}, done: () => {} };
  let last = 0;
  let drawn = false;
  const draw = (done: number, label: string | undefined) => {
    const ratio = Math.min(1, Math.max(0, done / total));
    const filled = Math.round(ratio * WIDTH);
    const bar = `${'#'.repeat(filled)}${'.'.repeat(WIDTH - filled)}`;
    const percent = `${Math.floor(ratio * 100)}%`.padStart(4);
    const line = `${title} [${bar}] ${percent}  ${done}/${total}${label ? `  ${label}` : ''}`;
    io.stderr(`\r\u001b[K${line.slice(0, Math.max(20, io.columns - 1))}`);
    drawn = true;
  };
  return {
    update(done, label) {
      const now = Date.now();
      if (done < total && drawn && now - last < MIN_INTERVAL_MS) return;
      last = now;
      draw(done, label);
    },
    done() {
      if (drawn) io.stderr('\r\u001b[K');
    },
  };
}
