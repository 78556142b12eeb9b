// The graph kept beside an SQLite base (`<base>.graph`, issue 41 point 3): saved at close with the log mark it
// reflects, loaded at open when the mark matches the log (store/sqlite-log-mark.ts), and then only the log after
// the mark is replayed. It is derived, like the search folder and the topology file: a missing, older-format,
// damaged or truncated file, or one whose mark the log does not hold (another base's, a log restored from an older
// copy, a shorter log), is ignored and the whole log replayed, so it can cost time but never give another graph.
// Entries appended after it (by another handle, or before a crash that skipped the save) are replayed on top.
import { existsSync } from 'node:fs';
import { graphImage } from '../graph/graph-image.js';
import { loadGraphImage } from '../graph/graph-image-load.js';
import type { GraphState } from '../graph/state.js';
import { readSectionFile, writeSectionFile } from '../store/section-file.js';
import { sideFile } from '../store/side-files.js';
import { matchesSqliteLog, sqliteLogMark, type SqliteLogMark } from '../store/sqlite-log-mark.js';
import type { WritePath } from '../write/write-path.js';

const MAGIC = 'EVKBGRF1';

export function graphSnapshotPath(base: string): string {
  return sideFile(base, '.graph');
}

interface SnapshotMeta {
  log: SqliteLogMark;
  graph: unknown;
}

/**
 * Saves the graph, which holds the log's entries 1..lastSeq, unless the file already holds exactly that
 * (`loadedAt`: the mark of the snapshot this handle was opened from, -1 if none). Throws on a failed write (the
 * caller ignores it: the next open replays more).
 */
export function saveGraphSnapshot(g: GraphState, lastSeq: number, base: string, loadedAt: number): void {
  const path = graphSnapshotPath(base);
  if (lastSeq === 0 || (lastSeq === loadedAt && existsSync(path))) return;
  const image = graphImage(g);
  const log = sqliteLogMark(base, lastSeq);
  if (image === null || log === null) return;
  writeSectionFile(path, MAGIC, { log, graph: image.meta } satisfies SnapshotMeta, image.sections);
}

/**
 * The graph saved beside the base, loaded into a new graph from `newGraph`, and the last seq it holds; null when
 * there is none that is this log's (see the top of the file).
 */
/**
 * Puts the graph saved beside the base in place of the write path's new, empty graph (before anything is replayed
 * or read) and moves its log position to the snapshot's mark; returns that mark, -1 when there is none to use.
 */
export function restoreGraph(w: WritePath, base: string): number {
  const restored = loadGraphSnapshot(() => w.newGraph(), base);
  if (restored === null) return -1;
  for (const d of w.ref.current.derived) d.close?.();
  w.ref.current = restored.graph;
  w.lastSeq = restored.lastSeq;
  return restored.lastSeq;
}

export function loadGraphSnapshot(
  newGraph: () => GraphState,
  base: string,
): { graph: GraphState; lastSeq: number } | null {
  const file = readSectionFile(graphSnapshotPath(base), MAGIC);
  if (file === null) return null;
  const meta = file.meta as Partial<SnapshotMeta> | null;
  if (meta === null || typeof meta !== 'object' || !matchesSqliteLog(base, meta.log)) return null;
  const graph = newGraph();
  try {
    loadGraphImage(graph, { ...file, meta: meta.graph });
  } catch {
    for (const d of graph.derived) d.close?.();
    return null;
  }
  return { graph, lastSeq: meta.log.last_seq };
}
