// kb-console's text extraction off its event loop (src/console/text-extraction.ts): ingestText through the child
// process answers exactly what it answers on the caller's thread; a text past the time budget is 408
// extraction_timeout, past the heap cap 413 extraction_memory_limit, and the next call gets a fresh child; an idle
// child ends; the calls past maxWaiting are 429 busy.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { open, useTextExtractor } from '@evident/kb';
import { textExtractionProcess } from '../src/console/text-extraction.js';
import { tempKb } from './helpers.js';

const TEXT =
  'Olaparib inhibits PARP1. BRCA1 is associated with breast cancer. Imatinib targets ABL1 and may inhibit KIT. ' +
  'TP53 does not interact with MDM4. Metformin activates AMPK in liver cells, and PARP1 binds BRCA2.';

const dirs: { cleanup(): void }[] = [];
after(() => {
  useTextExtractor(undefined);
  for (const d of dirs) d.cleanup();
});

/** The answer with each claim id named by its place in claim_ids (ids count up per process, not per base). */
function byPlace(r: { claim_ids: string[] }): unknown {
  const place = new Map(r.claim_ids.map((id, i) => [id, `#${i}`]));
  return JSON.parse(JSON.stringify(r, (_k, v) => (typeof v === 'string' && place.has(v) ? place.get(v) : v)));
}

async function ingestBoth(text: string, extractor?: ReturnType<typeof textExtractionProcess>) {
  const kb = tempKb();
  dirs.push(kb);
  const db = await open(kb.path, { embedding: false });
  try {
    await db.ingestBatch([
      {
        subject: ['HGX1', 'gene'],
        predicate: ['interacts_with', 'molecular'],
        object: ['HGX2', 'gene'],
        provenance: { source_type: 'experiment', source_id: 'seed' },
      },
    ]);
    useTextExtractor(extractor?.extract);
    return byPlace(await db.ingestText(`${text} HGX1 interacts with HGX2.`, { source_id: 'doc-1' })) as {
      ingested: number;
    };
  } finally {
    useTextExtractor(undefined);
    await db.close();
  }
}

test('ingestText through the child process answers what it answers on the thread', async () => {
  const child = textExtractionProcess();
  try {
    const here = await ingestBoth(TEXT);
    const there = await ingestBoth(TEXT, child);
    assert.ok(here.ingested >= 4, `claims found: ${JSON.stringify(here)}`);
    assert.deepEqual(there, here);
  } finally {
    child.close();
  }
});

test('past its budget or its heap cap the extraction is stopped with a 4xx, and the next call works', async () => {
  const big = 'aZ9-_.'.repeat(400_000);
  const slow = textExtractionProcess({ timeoutMs: 50 });
  try {
    await assert.rejects(ingestBoth(big, slow), (e: { code?: string; status?: number }) => {
      assert.equal(e.code, 'extraction_timeout');
      assert.equal(e.status, 408);
      return true;
    });
  } finally {
    slow.close();
  }
  const small = textExtractionProcess({ heapMb: 64 });
  try {
    await assert.rejects(
      ingestBoth(`${'BRCA1 and TP53 and PARP1 inhibit KIT. '.repeat(200_000)}`, small),
      (e: { code?: string; status?: number }) => {
        assert.equal(e.code, 'extraction_memory_limit', String(e));
        assert.equal(e.status, 413);
        return true;
      },
    );
  } finally {
    small.close();
  }
  const fresh = textExtractionProcess();
  try {
    assert.deepEqual(await ingestBoth(TEXT, fresh), await ingestBoth(TEXT));
  } finally {
    fresh.close();
  }
});

test('an idle child ends; calls past maxWaiting are 429 busy', async () => {
  const child = textExtractionProcess({ idleMs: 100, maxWaiting: 1 });
  const seed = { vocabularies: [], entities: [] as [string, string][] };
  try {
    const first = child.extract('Olaparib inhibits PARP1.', seed);
    await assert.rejects(child.extract('x', seed), (e: { code?: string; status?: number }) => e.status === 429);
    const out = await first;
    assert.equal(out.claims.length, 1);
    const pid = child.pid();
    assert.ok(pid !== undefined);
    await new Promise((r) => setTimeout(r, 1000));
    assert.equal(child.pid(), undefined, 'the idle child ended');
    assert.throws(() => process.kill(pid, 0), 'its process is gone');
  } finally {
    child.close();
  }
});
