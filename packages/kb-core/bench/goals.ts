// Issue 41's goals for bench:kb, each with the run's figure and whether it was met (null: not measured in this
// run, e.g. the topology stage or its full recompute skipped).

export interface GoalFigures {
  ratio: number;
  search_settle_ms: number;
  open_ms: number;
  topology_incremental_ms: number | null;
  topology_modularity_gap: number | null;
  what_if_add_ms: number | null;
  depth2_p50_us: number;
  peak_rss_mb: number;
}

type Goal = { value: number | null; goal: string; met: boolean | null };

function goal(value: number | null, op: '>=' | '<=' | '<', bound: number): Goal {
  const met = value === null ? null : op === '>=' ? value >= bound : op === '<=' ? value <= bound : value < bound;
  return { value, goal: `${op} ${bound}`, met };
}

export function goals(f: GoalFigures) {
  const g = {
    ingest_ratio: goal(f.ratio, '>=', 1),
    search_settle_ms: goal(f.search_settle_ms, '<=', 60_000),
    open_ms: goal(f.open_ms, '<=', 3_000),
    topology_incremental_ms: goal(f.topology_incremental_ms, '<=', 5_000),
    topology_modularity_gap: goal(f.topology_modularity_gap, '<=', 0.002),
    what_if_add_ms: goal(f.what_if_add_ms, '<=', 50),
    depth2_p50_us: goal(f.depth2_p50_us, '<', 40),
    peak_rss_mb: goal(f.peak_rss_mb, '<', 2_048),
  };
  return { ...g, all_met: Object.values(g).every((x) => x.met === true) };
}
