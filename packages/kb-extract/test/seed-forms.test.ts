// Issue #14 on the extraction calls: the seed's positional forms (ingestText(text, source_id),
// ingestChat(messages, conversation_id, extraction), ingestTeamChat(path, channels, extraction)), unknown option
// keys refused, warnings in the results, and recall on disease names the dictionary lacks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';
import { KbValidationError, quickstart, tempKb, type KbDB } from './helpers.js';

function zipBuffer(entries: Record<string, string>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries)) zip.addBuffer(Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

async function freshDb(t: { after(fn: () => unknown): void }): Promise<{ db: KbDB; dir: string }> {
  const kb = tempKb();
  const db = await quickstart(kb.path);
  t.after(async () => {
    await db.close();
    kb.cleanup();
  });
  return { db, dir: kb.dir };
}

const refused = (field: string, code?: string) => (e: unknown) =>
  e instanceof KbValidationError && e.field === field && (code === undefined || e.code === code);

test('ingestText(text, source_id), ingestChat(messages, conversation_id, extraction) and their refusals', async (t) => {
  const { db } = await freshDb(t);
  const r = await db.ingestText('TP53 is associated with Li-Fraumeni syndrome.', 'note:lfs');
  assert.deepEqual(r.source_ids, ['note:lfs']);
  assert.equal(r.ingested, 1);
  const [claim] = await db.claimsFor('TP53');
  assert.deepEqual(
    [claim!.subject_id, claim!.predicate[0], claim!.object_id],
    ['gene:tp53', 'associated_with', 'disease:li-fraumeni syndrome'],
  );
  assert.deepEqual(r.warnings, []);
  await db.retract('note:lfs', 'typo in the note');
  const again = await db.ingestText('TP53 is associated with Li-Fraumeni syndrome.', 'note:lfs');
  assert.deepEqual(
    again.warnings.map((w) => [w.claim_id, w.code]),
    [[again.claim_ids[0], 'source_was_retracted']],
  );
  const chat = await db.ingestChat([{ role: 'user', content: 'Olaparib inhibits PARP1.' }], 'conv-7', 'heuristic');
  assert.deepEqual(chat.source_ids, ['chat:conv-7/0']);
  await assert.rejects(
    db.ingestText('Olaparib inhibits PARP1.', { sourceid: 'x' } as never),
    refused('options.sourceid', 'unknown_option'),
  );
  await assert.rejects(db.ingestText('Olaparib inhibits PARP1.', 7 as never), refused('source_id', 'invalid_type'));
  await assert.rejects(
    db.ingestChat([{ role: 'user', content: 'x' }], 'c', 'fancy' as never),
    refused('extraction', 'invalid_value'),
  );
  await assert.rejects(
    db.ingestChat([{ role: 'user', content: 'x' }], { conversation: 'c' } as never),
    refused('options.conversation'),
  );
});

test('ingestTeamChat(path, channels, extraction) reads only those channels', async (t) => {
  const { db, dir } = await freshDb(t);
  const path = join(dir, 'acme.zip');
  const day = (text: string, ts: string) => JSON.stringify([{ type: 'message', user: 'U01', text, ts }]);
  writeFileSync(
    path,
    await zipBuffer({
      'channels.json': JSON.stringify([
        { id: 'C01', name: 'oncology' },
        { id: 'C02', name: 'random' },
      ]),
      'users.json': JSON.stringify([{ id: 'U01', name: 'ada' }]),
      'oncology/2025-03-01.json': day('Olaparib inhibits PARP1.', '1740787200.000100'),
      'random/2025-03-01.json': day('Imatinib inhibits ABL1.', '1740787300.000100'),
    }),
  );
  const r = await db.ingestTeamChat(path, ['oncology'], 'heuristic');
  assert.equal(r.ingested, 1);
  assert.deepEqual(r.source_ids, ['slack:acme/oncology/1740787200.000100']);
  assert.equal((await db.ingestTeamChat(path, null, 'heuristic')).ingested, 1, 'null channels: all of them');
  await assert.rejects(db.ingestTeamChat(path, 'oncology' as never), refused('channels', 'invalid_type'));
  await assert.rejects(db.ingestTeamChat(path, { channel: ['x'] } as never), refused('options.channel'));
});

test('disease names the dictionary lacks: X syndrome, Y disease, Z-associated ...', async (t) => {
  const { db } = await freshDb(t);
  const text = [
    'MLH1 is associated with Lynch syndrome.',
    'COL5A1 is associated with Ehlers-Danlos syndrome.',
    'PRNP causes Creutzfeldt-Jakob disease.',
    'TBX1 is associated with DiGeorge syndrome.',
    'PALB2 is associated with BRCA1-associated breast cancer.',
  ].join(' ');
  const r = await db.ingestText(text, 'note:recall');
  assert.equal(r.ingested, 5);
  const objects = [];
  for (const g of ['MLH1', 'COL5A1', 'PRNP', 'TBX1', 'PALB2']) objects.push((await db.claimsFor(g))[0]!.object_id);
  assert.deepEqual(objects, [
    'disease:lynch syndrome',
    'disease:ehlers-danlos syndrome',
    'disease:creutzfeldt-jakob disease',
    'disease:digeorge syndrome',
    'disease:brca1-associated breast cancer',
  ]);
});
