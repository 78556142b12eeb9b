import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import yazl from 'yazl';
import { tempDir } from '@evident/testkit';
import { escapesRoot, KbArchiveError, looksLikeZip, ZipArchive } from '../src/archive/zip.js';

function makeZip(path: string, entries: Record<string, string | Buffer>, compress = true): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, data] of Object.entries(entries))
    zip.addBuffer(Buffer.isBuffer(data) ? data : Buffer.from(data), name, { compress });
  zip.end();
  const chunks: Buffer[] = [];
  return new Promise((resolve, reject) => {
    zip.outputStream.on('data', (c: Buffer) => chunks.push(c));
    zip.outputStream.on('end', () => {
      writeFileSync(path, Buffer.concat(chunks));
      resolve();
    });
    zip.outputStream.on('error', reject);
  });
}

async function rejectsWith(p: Promise<unknown>, codes: string[], file: string) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof KbArchiveError, `expected KbArchiveError, got ${String(e)}`);
    assert.ok(codes.includes(e.code), `code ${e.code} not in ${codes.join(',')}`);
    assert.equal(e.file, file);
    assert.ok(e.message.includes(file), 'the message names the file');
    return true;
  });
}

test('escapesRoot catches parent segments, absolute paths and drive letters', () => {
  assert.equal(escapesRoot('a/b.json'), false);
  assert.equal(escapesRoot('a/../b.json'), false);
  assert.equal(escapesRoot('../b.json'), true);
  assert.equal(escapesRoot('a/../../b.json'), true);
  assert.equal(escapesRoot('/etc/passwd'), true);
  assert.equal(escapesRoot('C:/x'), true);
  assert.equal(escapesRoot('a\\..\\..\\x'), true);
});

test('reads entries as streams and text', async (t) => {
  const d = tempDir('kb-archive-');
  t.after(d.cleanup);
  const p = join(d.path, 'ok.zip');
  await makeZip(p, { 'a.json': '[1,2,3]', 'dir/b.txt': 'hello '.repeat(1000) });
  assert.equal(looksLikeZip(p), true);
  const z = await ZipArchive.open(p);
  try {
    assert.deepEqual(z.names().sort(), ['a.json', 'dir/b.txt']);
    assert.equal(await z.text('a.json'), '[1,2,3]');
    assert.equal((await z.text('dir/b.txt')).length, 6000);
    await rejectsWith(z.text('missing.json'), ['missing_entry'], p);
  } finally {
    z.close();
  }
});

test('non-ZIP, truncated and corrupt archives are typed errors naming the file', async (t) => {
  const d = tempDir('kb-archive-');
  t.after(d.cleanup);
  const text = join(d.path, 'notes.zip');
  writeFileSync(text, 'this is plainly not a zip file, just some text that is long enough');
  assert.equal(looksLikeZip(text), false);
  await rejectsWith(ZipArchive.open(text), ['not_zip'], text);

  const tiny = join(d.path, 'tiny.zip');
  writeFileSync(tiny, 'PK');
  await rejectsWith(ZipArchive.open(tiny), ['not_zip'], tiny);

  const good = join(d.path, 'good.zip');
  await makeZip(good, { 'a.json': JSON.stringify({ x: randomBytes(4000).toString('hex') }) });
  const bytes = readFileSync(good);
  const truncated = join(d.path, 'truncated.zip');
  writeFileSync(truncated, bytes.subarray(0, bytes.length - 40));
  await rejectsWith(ZipArchive.open(truncated), ['not_zip', 'corrupt_archive'], truncated);

  // Damage the compressed data: opening works, reading fails with corrupt_archive.
  const damaged = join(d.path, 'damaged.zip');
  const copy = Buffer.from(bytes);
  for (let i = 60; i < 200; i++) copy[i] = 0xff;
  writeFileSync(damaged, copy);
  const z = await ZipArchive.open(damaged);
  try {
    await rejectsWith(z.text('a.json'), ['corrupt_archive', 'too_large'], damaged);
  } finally {
    z.close();
  }

  await rejectsWith(ZipArchive.open(join(d.path, 'absent.zip')), ['not_found'], join(d.path, 'absent.zip'));
});

test('an entry whose path escapes the root is refused before anything is read', async (t) => {
  const d = tempDir('kb-archive-');
  t.after(d.cleanup);
  const p = join(d.path, 'evil.zip');
  await makeZip(p, { 'ok.json': '[]', 'xx/evil.json': '[]' });
  // Same length, so the headers stay valid: 'xx/evil.json' -> '../evil.json' in every header.
  const buf = readFileSync(p);
  const from = Buffer.from('xx/evil.json');
  let at = buf.indexOf(from);
  let n = 0;
  while (at >= 0) {
    Buffer.from('../evil.json').copy(buf, at);
    n++;
    at = buf.indexOf(from, at + 1);
  }
  assert.equal(n, 2);
  writeFileSync(p, buf);
  await rejectsWith(ZipArchive.open(p), ['path_traversal'], p);
});

test('size bound: declared expansion beyond the bound, and entries that lie about their size', async (t) => {
  const d = tempDir('kb-archive-');
  t.after(d.cleanup);
  const bomb = join(d.path, 'bomb.zip');
  await makeZip(bomb, { 'zeros.bin': Buffer.alloc(4 * 1024 * 1024) });
  assert.ok(readFileSync(bomb).length < 64 * 1024, 'compresses well');
  await rejectsWith(ZipArchive.open(bomb, { max_total_bytes: 1024 * 1024 }), ['too_large'], bomb);
  const ok = await ZipArchive.open(bomb, { max_total_bytes: 8 * 1024 * 1024 });
  ok.close();

  // Patch the central directory to declare 100 bytes: the streamed count must still stop it.
  const liar = join(d.path, 'liar.zip');
  const buf = readFileSync(bomb);
  const cd = buf.indexOf(Buffer.from([0x50, 0x4b, 0x01, 0x02]));
  assert.ok(cd > 0);
  buf.writeUInt32LE(100, cd + 24);
  writeFileSync(liar, buf);
  const z = await ZipArchive.open(liar, { max_total_bytes: 1024 * 1024 });
  try {
    await rejectsWith(z.text('zeros.bin'), ['too_large', 'corrupt_archive'], liar);
  } finally {
    z.close();
  }
});

test('entry-count bound', async (t) => {
  const d = tempDir('kb-archive-');
  t.after(d.cleanup);
  const p = join(d.path, 'many.zip');
  const entries: Record<string, string> = {};
  for (let i = 0; i < 40; i++) entries[`f${i}.json`] = '[]';
  await makeZip(p, entries);
  await rejectsWith(ZipArchive.open(p, { max_entries: 10 }), ['too_many_entries'], p);
  const z = await ZipArchive.open(p, { max_entries: 40 });
  assert.equal(z.names().length, 40);
  z.close();
});
