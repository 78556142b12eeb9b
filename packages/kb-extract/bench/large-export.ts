// Memory on a large chat export: builds a ChatGPT-style export ZIP of EXPORT_MB (default 500) MB of
// conversations.json on disk (streamed, never held in memory), ingests it with ingestChatFile, and samples the
// process's RSS while it runs. JSON on stdout: peak RSS during ingest (the figure), RSS before ingest (the
// baseline), their ratio, and the archive and claim counts.
import { createWriteStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { once } from 'node:events';
import yazl from 'yazl';
import { tempDir } from '@evident/testkit';
import { quickstart } from '@evident/kb-core';
import { createExtraction } from '../src/index.js';

const targetBytes = Number(process.env.EXPORT_MB ?? 500) * 1024 * 1024;
const genes = ['KIT', 'ABL1', 'EGFR', 'BRAF', 'ALK', 'PARP1', 'JAK2', 'MET', 'KRAS', 'ERBB2'];
const drugs = [
  'imatinib',
  'nilotinib',
  'erlotinib',
  'vemurafenib',
  'crizotinib',
  'olaparib',
  'ruxolitinib',
  'capmatinib',
  'sotorasib',
  'lapatinib',
];
const filler =
  'The discussion then turned to assay conditions, buffer choice and plate layout for the next screen. '.repeat(40);

function node(id: string, parent: string | null, children: string[], role: string, text: string) {
  return {
    id,
    parent,
    children,
    message: { id, author: { role }, create_time: 1_700_000_000, content: { content_type: 'text', parts: [text] } },
  };
}
function conversation(i: number): string {
  const g = genes[i % genes.length]!;
  const d = drugs[(i * 7) % drugs.length]!;
  return JSON.stringify({
    id: `conv-${i}`,
    title: `Notes ${i}`,
    current_node: 'n2',
    create_time: 1_700_000_000 + i,
    mapping: {
      n1: node('n1', null, ['n2'], 'user', `What does ${d} do? ${filler}`),
      n2: node('n2', 'n1', [], 'assistant', `${d[0]!.toUpperCase()}${d.slice(1)} inhibits ${g}. ${filler}`),
    },
  });
}

async function buildExport(path: string): Promise<{ bytes: number; conversations: number }> {
  let written = 0;
  let i = 0;
  const json = Readable.from(
    (function* () {
      yield '[';
      while (written < targetBytes) {
        const s = (i ? ',' : '') + conversation(i++);
        written += s.length;
        yield s;
      }
      yield ']';
    })(),
  );
  const zip = new yazl.ZipFile();
  zip.addReadStream(json, 'conversations.json');
  zip.addBuffer(Buffer.from('{}'), 'user.json');
  zip.end();
  const out = createWriteStream(path);
  zip.outputStream.pipe(out);
  await once(out, 'finish');
  return { bytes: written, conversations: i };
}

const dir = tempDir('kb-large-export-');
try {
  const zipPath = join(dir.path, 'chatgpt-export.zip');
  const built = await buildExport(zipPath);
  global.gc?.();
  const db = await quickstart(join(dir.path, 'large.kb'), { extraction: createExtraction() });
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 50);
  const t0 = performance.now();
  const r = await db.ingestChatFile(zipPath, { platform: 'chatgpt' });
  const seconds = (performance.now() - t0) / 1000;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  await db.close();
  const mb = (b: number) => Math.round(b / 1024 / 1024);
  console.log(
    JSON.stringify(
      {
        benchmark: 'kb ingestChatFile on a large ChatGPT export (heuristic extraction)',
        conversations_json_mb: mb(built.bytes),
        zip_mb: mb(statSync(zipPath).size),
        conversations: built.conversations,
        ingested: r.ingested,
        duplicates: r.duplicates,
        seconds: Number(seconds.toFixed(1)),
        figure: { peak_rss_mb_during_ingest: mb(peak) },
        baseline: { rss_mb_before_ingest: mb(before) },
        ratio: Number((peak / before).toFixed(2)),
        growth_mb: mb(peak - before),
      },
      null,
      2,
    ),
  );
} finally {
  dir.cleanup();
}
