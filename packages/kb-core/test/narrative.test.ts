// The query frame's narrative reads as English whatever the predicate's grammatical form.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import { quickstart } from '../src/index.js';

test('narrative verbs: finite verbs stay, participles and prepositional predicates take "is"', async () => {
  const dir = tempDir('kb-narrative-');
  try {
    await using db = await quickstart(join(dir.path, 'n.kb'));
    const src = (id: string) => ({ source_type: 'literature', source_id: id });
    await db.ingest(['BRCA1', 'gene'], ['associated_with', 'association'], ['breast cancer', 'disease'], src('p1'));
    await db.ingest(['PALB2', 'gene'], ['interacts_with', 'molecular'], ['BRCA1', 'gene'], src('p2'));
    const { narrative } = await db.query('BRCA1', { depth: 1 });
    assert.match(narrative, /BRCA1 is associated with breast cancer/);
    assert.match(narrative, /PALB2 interacts with BRCA1/);
    assert.doesNotMatch(narrative, /is interacts/);
  } finally {
    dir.cleanup();
  }
});
