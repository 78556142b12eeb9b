// The one way a caller steers a long engine run: cancel it, and hear how far it got.

export interface RunHooks {
  /** Aborting it stops the run at its next check; the run then throws the engine's aborted error. */
  signal?: AbortSignal;
  /** Called as the run passes its stages; `fraction` of the whole run, 0..1, never decreasing. */
  progress?(stage: string, fraction: number): void;
}

/** Reports progress only when it moved forward, clamped to 0..1 (engines may call it freely). */
export function monotonicProgress(hooks: RunHooks): (stage: string, fraction: number) => void {
  let last = -1;
  return (stage, fraction) => {
    const f = Math.min(1, Math.max(0, fraction));
    if (f < last || !hooks.progress) return;
    last = f;
    hooks.progress(stage, f);
  };
}
