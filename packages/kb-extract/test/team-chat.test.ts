import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';
import { tempDir } from '@evident/testkit';
import { quickstart, KbValidationError, type KbDB, type Claim } from './helpers.js';
import { KbChatFileError } from '../src/chat/files.js';
import { KbArchiveError } from '../src/archive/zip.js';
import { tempKb, ingestTeamChat } from './helpers.js';

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

const users = [
  { id: 'U01', name: 'ada', real_name: 'Ada Lovelace', profile: { display_name: 'ada.l', real_name: 'Ada Lovelace' } },
  { id: 'U02', name: 'rosalind', profile: { display_name: '', real_name: 'Rosalind Franklin' } },
];
const channels = [
  { id: 'C01', name: 'oncology' },
  { id: 'C02', name: 'random' },
];

function workspace(extra: Record<string, string> = {}): Record<string, string> {
  return {
    'channels.json': JSON.stringify(channels),
    'users.json': JSON.stringify(users),
    'integration_logs.json': '[]',
    'oncology/2025-03-01.json': JSON.stringify([
      {
        type: 'message',
        subtype: 'channel_join',
        user: 'U02',
        text: '<@U02> has joined the channel',
        ts: '1740787200.000100',
      },
      {
        type: 'message',
        user: 'U01',
        text: 'New paper: osimertinib inhibits EGFR in <#C02|random> models &amp; more',
        ts: '1740787300.000200',
        thread_ts: '1740787300.000200',
        reply_count: 1,
      },
      {
        type: 'message',
        user: 'U02',
        text: '<@U01> agreed, and palbociclib inhibits CDK4.',
        ts: '1740787400.000300',
        thread_ts: '1740787300.000200',
        parent_user_id: 'U01',
      },
      {
        type: 'message',
        subtype: 'bot_message',
        bot_id: 'B01',
        text: 'Reminder: imatinib inhibits KIT',
        ts: '1740787500.000400',
      },
      {
        type: 'message',
        user: 'U01',
        bot_id: 'B02',
        text: 'Gefitinib inhibits EGFR (posted by an app)',
        ts: '1740787550.000450',
      },
      {
        type: 'message',
        subtype: 'channel_topic',
        user: 'U01',
        text: 'set the channel topic: aspirin inhibits PTGS1',
        ts: '1740787600.000500',
      },
    ]),
    'oncology/2025-03-02.json': JSON.stringify([
      { type: 'message', user: 'U02', text: 'Lapatinib did not inhibit EGFR in our assay.', ts: '1740873600.000100' },
    ]),
    'random/2025-03-01.json': JSON.stringify([
      { type: 'message', user: 'U01', text: 'Metformin is used to treat type 2 diabetes.', ts: '1740787200.000900' },
    ]),
    ...extra,
  };
}

async function setup(t: { after(fn: () => unknown): void }): Promise<{ db: KbDB; dir: string }> {
  const kb = tempKb();
  const d = tempDir('kb-slack-');
  const db = await quickstart(kb.path);
  t.after(async () => {
    await db.close();
    kb.cleanup();
    d.cleanup();
  });
  return { db, dir: d.path };
}

test('Slack export: messages become claims with provenance to channel and message; threads and names resolved', async (t) => {
  const { db, dir } = await setup(t);
  const p = join(dir, 'acme-lab.zip');
  writeFileSync(p, await zipBuffer(workspace()));
  let events = 0;
  db.on('claim_ingested', () => events++);
  const r = await ingestTeamChat(db, p);
  const cs = (await Promise.all(r.claim_ids.map((id) => db.getClaim(id)))) as Claim[];
  const bySubject = new Map(cs.map((c) => [c.subject[0], c]));
  assert.deepEqual(
    [...bySubject.keys()].sort(),
    ['metformin', 'osimertinib', 'palbociclib'],
    'bots, joins and topics are skipped',
  );
  assert.equal(events, 3);
  const osi = bySubject.get('osimertinib')!;
  assert.equal(osi.provenance.source_type, 'team_chat');
  assert.equal(osi.provenance.source_id, 'slack:acme-lab/oncology/1740787300.000200');
  assert.equal(osi.provenance.channel, 'oncology');
  assert.equal(osi.provenance.user_name, 'ada.l');
  assert.equal(osi.provenance.posted_at, new Date(1740787300_000.2).toISOString());
  assert.equal(
    (osi.payload as { sentence: string }).sentence,
    'New paper: osimertinib inhibits EGFR in #random models & more',
  );
  const reply = bySubject.get('palbociclib')!;
  assert.equal(reply.provenance.thread_ts, '1740787300.000200');
  assert.equal(reply.provenance.thread_source_id, 'slack:acme-lab/oncology/1740787300.000200');
  assert.equal(reply.provenance.user_name, 'Rosalind Franklin');
  assert.ok((reply.payload as { sentence: string }).sentence.startsWith('@ada.l agreed'));
  assert.ok(
    r.skipped.some(
      (s) => s.source_id === 'slack:acme-lab/oncology/1740873600.000100' && s.reason.startsWith('negated'),
    ),
  );
  // Retracting one message's source removes just its claim.
  await db.retract('slack:acme-lab/random/1740787200.000900', 'retracted by the author');
  assert.equal((await db.stats()).claim_count, 2);
});

test('Slack export: the channels filter, with or without #, and unknown channels', async (t) => {
  const { db, dir } = await setup(t);
  const p = join(dir, 'ws.zip');
  writeFileSync(p, await zipBuffer(workspace()));
  const r = await ingestTeamChat(db, p, { channels: ['#random'] });
  assert.equal(r.ingested, 1);
  assert.deepEqual(r.source_ids, ['slack:ws/random/1740787200.000900']);
  await assert.rejects(
    ingestTeamChat(db, p, { channels: ['general'] }),
    (e: unknown) =>
      e instanceof KbValidationError &&
      e.code === 'unknown_channel' &&
      e.field === 'channels' &&
      /oncology/.test(e.message),
  );
  await assert.rejects(ingestTeamChat(db, p, { channels: 'random' as unknown as string[] }), { code: 'invalid_type' });
});

test('Slack export: one archive is one transaction; bad archives are typed errors naming the file', async (t) => {
  const { db, dir } = await setup(t);
  // A good day file, then a malformed one: nothing from the archive may be stored.
  const broken = join(dir, 'broken.zip');
  writeFileSync(broken, await zipBuffer(workspace({ 'random/2025-03-02.json': '[{"type": "message", "text": "x", ' })));
  await assert.rejects(
    ingestTeamChat(db, broken),
    (e: unknown) =>
      e instanceof KbChatFileError &&
      e.code === 'malformed_json' &&
      e.file === broken &&
      /random\/2025-03-02\.json/.test(e.message),
  );
  assert.equal((await db.stats()).claim_count, 0);

  const noChannels = join(dir, 'chatgpt.zip');
  writeFileSync(noChannels, await zipBuffer({ 'conversations.json': '[]' }));
  await assert.rejects(
    ingestTeamChat(db, noChannels),
    (e: unknown) => e instanceof KbChatFileError && e.code === 'unknown_platform' && /ingestChatFile/.test(e.message),
  );

  const notZip = join(dir, 'slack.zip');
  writeFileSync(notZip, '{"channels": []}');
  await assert.rejects(
    ingestTeamChat(db, notZip),
    (e: unknown) => e instanceof KbArchiveError && e.code === 'not_zip' && e.file === notZip,
  );

  const many = join(dir, 'many.zip');
  const extra: Record<string, string> = {};
  for (let i = 0; i < 30; i++) extra[`random/2024-01-${String(i + 1).padStart(2, '0')}.json`] = '[]';
  writeFileSync(many, await zipBuffer(workspace(extra)));
  await assert.rejects(
    ingestTeamChat(db, many, { max_entries: 20 }),
    (e: unknown) => e instanceof KbArchiveError && e.code === 'too_many_entries',
  );

  const badChannels = join(dir, 'bad-channels.zip');
  writeFileSync(badChannels, await zipBuffer({ 'channels.json': '{"not": "a list"}' }));
  await assert.rejects(
    ingestTeamChat(db, badChannels),
    (e: unknown) => e instanceof KbChatFileError && e.code === 'invalid_format' && e.field === 'channels.json',
  );
  assert.equal((await db.stats()).claim_count, 0);
});
