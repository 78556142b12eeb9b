// Memory figures for the KB benchmarks: the process's true peak RSS and which stage set it, and a point-in-time
// composition (V8 heap by space, external, and resident pages by mapping) for bench/memory-probe.ts.
import { readFileSync } from 'node:fs';
import { writeHeapSnapshot, getHeapSpaceStatistics } from 'node:v8';

const mb = (bytes: number) => Math.round(bytes / 1024 / 1024);

/**
 * The process's peak resident set so far, MB: VmHWM on Linux (the kernel's high-water mark over the whole life of
 * the process, every thread's and native allocation's pages included), else process.resourceUsage().maxRSS.
 */
export function peakRssMb(): number {
  try {
    const m = /^VmHWM:\s+(\d+) kB/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (m) return Math.round(Number(m[1]) / 1024);
  } catch {
    // not Linux: the resource usage below
  }
  return Math.round(process.resourceUsage().maxRSS / 1024);
}

/**
 * Which stage set the peak: call `mark(stage)` at the end of each stage; the peak is the high-water mark, and the
 * stage is the first one at whose end the mark had reached its final value (the mark only rises, so the peak was
 * set during that stage).
 */
export class PeakByStage {
  private readonly marks: [string, number][] = [];

  mark(stage: string): void {
    this.marks.push([stage, peakRssMb()]);
  }

  result(): { peak_rss_mb: number; peak_rss_stage: string; peak_rss_by_stage_mb: Record<string, number> } {
    const peak = peakRssMb();
    const stage = this.marks.find(([, v]) => v >= peak)?.[0] ?? 'after the last stage';
    return { peak_rss_mb: peak, peak_rss_stage: stage, peak_rss_by_stage_mb: Object.fromEntries(this.marks) };
  }
}

/** Resident MB by mapping from /proc/self/smaps: anonymous (heap, native allocations, thread stacks) and files. */
function residentByMapping(): Record<string, number> {
  let text: string;
  try {
    text = readFileSync('/proc/self/smaps', 'utf8');
  } catch {
    return {};
  }
  const kb = new Map<string, number>();
  let name = '';
  for (const line of text.split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const path = head[1]!.trim();
      // Files under the base's folder are told apart by their suffix; libraries and the rest by name.
      name = path === '' || path.startsWith('[') ? path || '[anon]' : classify(path);
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) kb.set(name, (kb.get(name) ?? 0) + Number(rss[1]));
  }
  return Object.fromEntries([...kb].filter(([, v]) => v >= 1024).map(([k, v]) => [k, Math.round(v / 1024)]));
}

function classify(path: string): string {
  if (path.includes('.vectors')) return 'vector files (mapped)';
  if (/\.kb(-wal|-shm)?$/.test(path)) return 'SQLite files (mapped)';
  if (path.endsWith('.node')) return `native addon ${path.split('/').pop()}`;
  if (path.includes('/node')) return 'node binary';
  return 'other files';
}

/**
 * With node --expose-gc: the same after a full collection, which tells live memory from garbage not yet
 * collected (a closed base's columns, a usearch index whose wrapper V8 has not got to). Changes what follows.
 */
function afterGc() {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (gc === undefined) return undefined;
  gc();
  gc();
  const m = process.memoryUsage();
  return { rss_mb: mb(m.rss), heap_used_mb: mb(m.heapUsed), array_buffers_mb: mb(m.arrayBuffers) };
}

/** The process's memory now, and (when `snapshot` is a path prefix) a heap snapshot written beside it. */
export function memoryComposition(snapshot: string | false = false) {
  const m = process.memoryUsage();
  const spaces = Object.fromEntries(
    getHeapSpaceStatistics().map((s) => [s.space_name, { used_mb: mb(s.space_used_size), size_mb: mb(s.space_size) }]),
  );
  const out = {
    rss_mb: mb(m.rss),
    peak_rss_mb: peakRssMb(),
    heap_total_mb: mb(m.heapTotal),
    heap_used_mb: mb(m.heapUsed),
    external_mb: mb(m.external),
    array_buffers_mb: mb(m.arrayBuffers),
    // Resident memory the JS heap and the external buffers do not account for: native allocations (usearch's
    // graph, SQLite's page cache, the threads' heaps and stacks) and mapped files.
    outside_heap_mb: mb(m.rss - m.heapTotal - m.external),
    heap_spaces: spaces,
    resident_by_mapping_mb: residentByMapping(),
    snapshot: snapshot ? writeHeapSnapshot(`${snapshot}.heapsnapshot`) : undefined,
    after_gc: afterGc(),
  };
  return out;
}
