import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import yazl from 'yazl';
import { tempDir } from '@evident/testkit';
import { quickstart, KbValidationError, type KbDB, type Claim } from './helpers.js';
import { CHAT_FILE_DEFAULTS, KbChatFileError, readChatFile } from '../src/chat/files.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KbArchiveError } from '../src/archive/zip.js';
import { tempKb, ingestChat, ingestChatFile } from './helpers.js';

function zipBuffer(entries: Record<string, string | Buffer>): Promise<Buffer> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries))
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name);
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => resolve(Buffer.concat(chunks)));
    zip.outputStream.on('error', reject);
  });
}

async function setup(t: { after(fn: () => unknown): void }): Promise<{ db: KbDB; dir: string }> {
  const kb = tempKb();
  const d = tempDir('kb-chat-');
  const db = await quickstart(kb.path);
  t.after(async () => {
    await db.close();
    kb.cleanup();
    d.cleanup();
  });
  return { db, dir: d.path };
}

const claimsOf = async (db: KbDB, ids: string[]) => (await Promise.all(ids.map((id) => db.getClaim(id)))) as Claim[];
const triple = (c: Claim) => `${c.subject[0]} ${c.predicate[0]} ${c.object[0]}`;

test('ingestChat: OpenAI-style messages; tool calls and images skipped; provenance to the message', async (t) => {
  const { db } = await setup(t);
  const seen: string[] = [];
  db.on('claim_ingested', (e) => seen.push(e.claim_input.provenance.source_id));
  const r = await ingestChat(
    db,
    [
      { role: 'system', content: 'You are a helpful assistant. Imatinib inhibits KIT.' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'Does imatinib treat CML?' },
          { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
        ],
      },
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'search', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'Gefitinib inhibits EGFR.' },
      { role: 'assistant', content: 'Yes. Imatinib inhibits BCR-ABL1 and is approved for chronic myeloid leukemia.' },
    ],
    { conversation_id: 'conv-42' },
  );
  const cs = await claimsOf(db, r.claim_ids);
  assert.deepEqual(cs.map(triple).sort(), ['imatinib inhibits BCR-ABL1', 'imatinib treats chronic myeloid leukemia']);
  for (const c of cs) {
    assert.equal(c.provenance.source_type, 'chat');
    assert.equal(c.provenance.source_id, 'chat:conv-42/4');
    assert.equal(c.provenance.role, 'assistant');
    assert.equal(c.provenance.conversation_id, 'conv-42');
  }
  assert.deepEqual(seen, ['chat:conv-42/4', 'chat:conv-42/4']);
  assert.deepEqual(r.source_ids, ['chat:conv-42/4']);
  // The user's question is speculative: skipped with a reason, not stored.
  assert.ok(r.skipped.some((s) => s.source_id === 'chat:conv-42/1' && s.reason.startsWith('speculative')));
});

test('ingestChat: Anthropic-style content blocks', async (t) => {
  const { db } = await setup(t);
  const r = await ingestChat(db, [
    {
      role: 'user',
      content: [
        { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
        { type: 'text', text: 'Summarise the figure.' },
      ],
    },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'tu1', name: 'lookup', input: { q: 'x' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'tu1', content: 'Aspirin inhibits PTGS1.' }] },
    {
      id: 'msg_9',
      role: 'assistant',
      content: [{ type: 'text', text: 'The figure shows that palbociclib inhibits CDK4 and CDK6.' }],
    },
  ]);
  const cs = await claimsOf(db, r.claim_ids);
  assert.deepEqual(cs.map(triple).sort(), ['palbociclib inhibits CDK4', 'palbociclib inhibits CDK6']);
  assert.match(cs[0]!.provenance.source_id, /^chat:chat-[0-9a-f]{12}\/msg_9$/);
});

test('ingestChat: malformed messages are errors naming the field; nothing is written', async (t) => {
  const { db } = await setup(t);
  const check = async (messages: unknown, field: string) => {
    await assert.rejects(
      ingestChat(db, messages as unknown[]),
      (e: unknown) => e instanceof KbValidationError && e.field === field,
    );
  };
  await check([{ role: 'user', content: 'Imatinib inhibits KIT.' }, { content: 'no role' }], 'messages[1].role');
  await check([{ role: 'user', content: 7 }], 'messages[0].content');
  await check([{ role: 'user', content: [{ text: 'no type' }] }], 'messages[0].content[0].type');
  await check([{ role: 'narrator', content: 'x' }], 'messages[0].role');
  await check('not an array', 'messages');
  await check([], 'messages');
  assert.equal((await db.stats()).claim_count, 0);
});

function gptNode(id: string, parent: string | null, children: string[], role: string | null, text?: string) {
  return {
    id,
    parent,
    children,
    message:
      role === null
        ? null
        : {
            id,
            author: { role },
            create_time: 1_700_000_000,
            content: { content_type: 'text', parts: [text ?? ''] },
            metadata: {},
          },
  };
}

export function chatgptExport() {
  // Conversation A: the user edited their first question, so the tree branches; current_node is on the
  // second branch, and the first branch's answer must not be ingested.
  const a = {
    id: 'conv-a',
    title: 'Kinase inhibitors',
    current_node: 'a5',
    mapping: {
      root: gptNode('root', null, ['sys'], null),
      sys: gptNode('sys', 'root', ['a1', 'b1'], 'system', 'Imatinib inhibits KIT.'),
      a1: gptNode('a1', 'sys', ['a2'], 'user', 'Which drug inhibits EGFR?'),
      a2: gptNode('a2', 'a1', [], 'assistant', 'Sorafenib inhibits EGFR.'),
      b1: gptNode('b1', 'sys', ['a3'], 'user', 'Which drugs inhibit EGFR?'),
      a3: gptNode('a3', 'b1', ['a4'], 'assistant', 'Erlotinib inhibits EGFR.'),
      a4: gptNode('a4', 'a3', ['a5'], 'tool', 'Gefitinib inhibits EGFR.'),
      a5: gptNode('a5', 'a4', [], 'assistant', 'Osimertinib also inhibits EGFR.'),
    },
  };
  const b = {
    id: 'conv-b',
    title: 'Diabetes',
    current_node: 'm2',
    mapping: {
      m1: gptNode('m1', null, ['m2'], 'user', 'Tell me about metformin.'),
      m2: {
        id: 'm2',
        parent: 'm1',
        children: [],
        message: {
          id: 'm2',
          author: { role: 'assistant' },
          content: {
            content_type: 'multimodal_text',
            parts: [{ asset_pointer: 'file://x' }, 'Metformin is used to treat type 2 diabetes.'],
          },
        },
      },
    },
  };
  return [a, b];
}

test('ingestChatFile: ChatGPT export ZIP follows the current branch of each message tree', async (t) => {
  const { db, dir } = await setup(t);
  const p = join(dir, 'chatgpt-export.zip');
  writeFileSync(
    p,
    await zipBuffer({
      'conversations.json': JSON.stringify(chatgptExport()),
      'user.json': '{}',
      'chat.html': '<html></html>',
    }),
  );
  const r = await ingestChatFile(db, p);
  const cs = await claimsOf(db, r.claim_ids);
  assert.deepEqual(cs.map(triple).sort(), [
    'erlotinib inhibits EGFR',
    'metformin treats type 2 diabetes mellitus',
    'osimertinib inhibits EGFR',
  ]);
  const osi = cs.find((c) => c.subject[0] === 'osimertinib')!;
  assert.equal(osi.provenance.source_id, 'chatgpt:conv-a/a5');
  assert.equal(osi.provenance.platform, 'chatgpt');
  assert.equal(osi.provenance.conversation_title, 'Kinase inhibitors');
  assert.equal(osi.provenance.file, 'chatgpt-export.zip');
  assert.equal(osi.provenance.created_at, new Date(1_700_000_000_000).toISOString());
  // Explicit platform works too, and the wrong one is refused.
  await assert.rejects(
    ingestChatFile(db, p, { platform: 'claude' }),
    (e: unknown) => e instanceof KbChatFileError && e.code === 'invalid_format',
  );
});

test('ingestChatFile: Claude export ZIP, single JSON conversations and text transcripts (auto-detected)', async (t) => {
  const { db, dir } = await setup(t);
  const claude = [
    {
      uuid: 'c-1',
      name: 'Statins',
      created_at: '2025-01-01T00:00:00Z',
      chat_messages: [
        {
          uuid: 'u1',
          sender: 'human',
          text: 'What does atorvastatin inhibit?',
          content: [{ type: 'text', text: 'What does atorvastatin inhibit?' }],
        },
        {
          uuid: 'u2',
          sender: 'assistant',
          text: 'ignored when content blocks exist',
          content: [
            { type: 'text', text: 'Atorvastatin inhibits HMGCR.' },
            { type: 'tool_use', name: 'x', input: {} },
          ],
        },
      ],
    },
  ];
  const pz = join(dir, 'claude.zip');
  writeFileSync(pz, await zipBuffer({ 'conversations.json': JSON.stringify(claude), 'users.json': '[]' }));
  const pj = join(dir, 'one.json');
  writeFileSync(
    pj,
    JSON.stringify({
      id: 'j-1',
      messages: [{ role: 'user', content: 'Celecoxib is a selective inhibitor of COX-2.' }],
    }),
  );
  const pa = join(dir, 'array.json');
  writeFileSync(
    pa,
    JSON.stringify([{ role: 'assistant', content: [{ type: 'text', text: 'Warfarin is metabolized by CYP2C9.' }] }]),
  );
  const pt = join(dir, 'transcript.txt');
  writeFileSync(
    pt,
    'User: what about trastuzumab?\nAssistant: Trastuzumab targets HER2\nand is approved for breast cancer.\nUser: thanks\n',
  );
  const got: Record<string, string[]> = {};
  for (const p of [pz, pj, pa, pt]) {
    const r = await ingestChatFile(db, p);
    got[p] = (await claimsOf(db, r.claim_ids)).map((c) => `${triple(c)} @${c.provenance.source_id}`).sort();
  }
  assert.deepEqual(got[pz], ['atorvastatin inhibits HMGCR @claude:c-1/u2']);
  assert.deepEqual(got[pj], ['celecoxib inhibits PTGS2 @json:j-1/0']);
  assert.deepEqual(got[pa], ['warfarin metabolized_by CYP2C9 @json:array.json/0']);
  assert.deepEqual(got[pt], [
    'trastuzumab targets ERBB2 @text:transcript.txt/1',
    'trastuzumab treats breast cancer @text:transcript.txt/1',
  ]);
});

test('ingestChatFile: bad input is a typed error naming the file; nothing half-ingested', async (t) => {
  const { db, dir } = await setup(t);
  const good = chatgptExport();
  // A valid conversation followed by broken JSON: the first must not be stored either.
  const broken = join(dir, 'broken.zip');
  writeFileSync(
    broken,
    await zipBuffer({ 'conversations.json': `[${JSON.stringify(good[1])}, {"id": "x", "mapping": {` }),
  );
  await assert.rejects(
    ingestChatFile(db, broken),
    (e: unknown) =>
      e instanceof KbChatFileError &&
      e.code === 'malformed_json' &&
      e.file === broken &&
      e.message.includes('conversations.json'),
  );
  const notZip = join(dir, 'export.zip');
  writeFileSync(notZip, 'hello, I am not an archive at all');
  await assert.rejects(
    ingestChatFile(db, notZip),
    (e: unknown) => e instanceof KbArchiveError && e.code === 'not_zip' && e.file === notZip,
  );
  const slack = join(dir, 'slack.zip');
  writeFileSync(slack, await zipBuffer({ 'channels.json': '[]', 'users.json': '[]' }));
  await assert.rejects(
    ingestChatFile(db, slack),
    (e: unknown) => e instanceof KbChatFileError && e.code === 'unknown_platform' && /ingestTeamChat/.test(e.message),
  );
  const empty = join(dir, 'empty.txt');
  writeFileSync(empty, '');
  await assert.rejects(ingestChatFile(db, empty), { code: 'empty_text' });
  const badJson = join(dir, 'bad.json');
  writeFileSync(badJson, '{"messages": [');
  await assert.rejects(
    ingestChatFile(db, badJson),
    (e: unknown) => e instanceof KbChatFileError && e.code === 'malformed_json' && e.file === badJson,
  );
  await assert.rejects(
    ingestChatFile(db, join(dir, 'one.json'), { platform: 'whatsapp' as 'json' }),
    (e: unknown) => e instanceof KbValidationError && e.field === 'platform',
  );
  await assert.rejects(ingestChatFile(db, join(dir, 'missing.json')), { code: 'not_found' });
  const bomb = join(dir, 'bomb.zip');
  writeFileSync(bomb, await zipBuffer({ 'conversations.json': `[${' '.repeat(3 * 1024 * 1024)}]` }));
  await assert.rejects(
    ingestChatFile(db, bomb, { max_total_bytes: 1024 * 1024 }),
    (e: unknown) => e instanceof KbArchiveError && e.code === 'too_large',
  );
  assert.equal((await db.stats()).claim_count, 0);
});

test('ingestChatFile: a string over max_string_chars is too_large naming the file and member, never read whole', async (t) => {
  const { db, dir } = await setup(t);
  const limit = 4096;
  const good = chatgptExport();
  // A valid conversation, then one whose title is 10x the limit (the 540 MB string of issue #13, scaled down).
  const huge = { ...good[0], title: 'x'.repeat(10 * limit) };
  const zip = join(dir, 'huge-string.zip');
  writeFileSync(zip, await zipBuffer({ 'conversations.json': JSON.stringify([good[1], huge]) }));
  const err = await ingestChatFile(db, zip, { max_string_chars: limit }).then(
    () => assert.fail('should be refused'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof KbChatFileError, String(err));
  assert.equal(err.code, 'too_large');
  assert.equal(err.file, zip);
  assert.equal(err.field, 'conversations.json[1]');
  assert.match(err.message, /longer than 4096 characters/);
  // A long message text read whole (a single JSON conversation) is refused the same way.
  const doc = join(dir, 'long-message.json');
  writeFileSync(doc, JSON.stringify({ messages: [{ role: 'user', content: `EGFR ${'y '.repeat(limit)}` }] }));
  await assert.rejects(
    ingestChatFile(db, doc, { max_string_chars: limit }),
    (e: unknown) => e instanceof KbChatFileError && e.code === 'too_large' && e.file === doc,
  );
  // A key counts too; and within the limit the same export ingests.
  const key = join(dir, 'long-key.json');
  writeFileSync(key, `[{"${'k'.repeat(2 * limit)}": 1}]`);
  await assert.rejects(ingestChatFile(db, key, { max_string_chars: limit }), { code: 'too_large' });
  assert.equal((await db.stats()).claim_count, 0, 'nothing half-ingested');
  await ingestChatFile(db, zip, { max_string_chars: 20 * limit });
  await assert.rejects(ingestChatFile(db, zip, { max_string_chars: 0 }), { code: 'invalid_value' });
  // The default is the one the README documents.
  assert.equal(CHAT_FILE_DEFAULTS.max_string_chars, 16 * 1024 * 1024);
  const readme = readFileSync(fileURLToPath(new URL('../../kb/README.md', import.meta.url)), 'utf8');
  assert.match(readme, /`max_string_chars` \(default 16,777,216\s+characters/);
});

test('large exports stream: conversations come out before the whole file is parsed, memory stays flat', async (t) => {
  const { dir } = await setup(t);
  // ~40 MB of conversations.json, then a broken tail. A reader that parsed the whole file first would
  // fail before yielding anything; the streaming reader yields every complete conversation first.
  const one = (i: number) =>
    JSON.stringify({
      id: `c${i}`,
      current_node: 'n2',
      mapping: {
        n1: gptNode('n1', null, ['n2'], 'user', `Question ${i}: ${'lorem ipsum dolor sit amet '.repeat(200)}`),
        n2: gptNode(
          'n2',
          'n1',
          [],
          'assistant',
          `Imatinib inhibits KIT. ${'consectetur adipiscing elit '.repeat(200)}`,
        ),
      },
    });
  const parts: string[] = [];
  let size = 0;
  let n = 0;
  while (size < 40 * 1024 * 1024) {
    const s = one(n++);
    parts.push(s);
    size += s.length + 1;
  }
  const p = join(dir, 'large.zip');
  writeFileSync(p, await zipBuffer({ 'conversations.json': `[${parts.join(',')},{"id":"tail","mapping":{"x":` }));
  parts.length = 0;
  global.gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  let count = 0;
  await assert.rejects(
    async () => {
      for await (const conv of readChatFile(p)) {
        assert.equal(conv.turns.length, 2);
        count++;
        if (count % 200 === 0) peak = Math.max(peak, process.memoryUsage().heapUsed - base);
      }
    },
    { code: 'malformed_json' },
  );
  assert.equal(count, n, 'every complete conversation was yielded before the error');
  t.diagnostic(
    `${n} conversations, ${Math.round(size / 1e6)} MB of JSON; heap growth while streaming: ${Math.round(peak / 1e6)} MB`,
  );
  // Parsing 40 MB of JSON at once costs well over 100 MB of heap; streaming stays far below that.
  assert.ok(peak < 64 * 1024 * 1024, `heap grew by ${Math.round(peak / 1e6)} MB`);
});
