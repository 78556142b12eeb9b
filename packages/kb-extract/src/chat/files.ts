// Chat files: ChatGPT and Claude data-export ZIPs (conversations.json), a single JSON conversation, or a
// plain-text transcript. Conversations are yielded one at a time; conversations.json is parsed as a stream
// (stream-json), so memory is bounded by the largest single conversation, not by the export.
import { createReadStream, openSync, readSync, closeSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { basename } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import Parser from 'stream-json/Parser.js';
import StreamArray from 'stream-json/streamers/StreamArray.js';
import { KbError, KbValidationError, type ChatFileLimits, type ChatPlatform } from '@evident/kb-core';
import { KbArchiveError, looksLikeZip, ZipArchive } from '../archive/zip.js';
import { extractStatus } from '../error-codes.js';
import { normalizeMessages, type ChatTurn, type Conversation } from './messages.js';

export type { ChatFileLimits, ChatPlatform };
export const CHAT_PLATFORMS: readonly ChatPlatform[] = ['auto', 'chatgpt', 'claude', 'json', 'text'];

/** A chat file that cannot be read as the platform says: names the file and, when known, the field. */
export class KbChatFileError extends KbError {
  readonly file: string;
  readonly field: string | undefined;
  constructor(code: string, file: string, message: string, field?: string) {
    // `field` locates the problem inside the file, not in the request: the status says the file is at fault
    // (400; not_found is 404), from KB_EXTRACT_ERRORS or, for kb-core's codes, KB_ERRORS.
    super(code, `${file}${field ? ` (${field})` : ''}: ${message}`, { status: extractStatus(code) });
    this.file = file;
    this.field = field;
  }
}

export const CHAT_FILE_DEFAULTS = {
  /** Characters of one JSON string value or message text in a chat file. */
  max_string_chars: 16 * 1024 * 1024,
} as const;

function maxStringChars(limits: ChatFileLimits): number {
  const max = limits.max_string_chars ?? CHAT_FILE_DEFAULTS.max_string_chars;
  if (!Number.isSafeInteger(max) || max < 1)
    throw new KbValidationError('invalid_value', 'max_string_chars', 'must be a positive integer');
  return max;
}

const VALUE_STARTS = new Set([
  'startObject',
  'startArray',
  'startString',
  'startNumber',
  'nullValue',
  'trueValue',
  'falseValue',
]);

/**
 * Passes the parser's tokens on and refuses a string (value or key) longer than `max` characters as its chunks
 * arrive, so no such string is ever held whole: stream-json packs a string into one value, and one of 540 MB
 * (past V8's longest string) left ingestChatFile never settling. Names the element of the top-level array.
 */
function stringBound(max: number, file: string, field: string): Transform {
  let depth = 0;
  let index = -1;
  let chars = 0;
  return new Transform({
    objectMode: true,
    transform(token: { name: string; value?: string }, _enc, done) {
      const { name } = token;
      if (depth === 1 && VALUE_STARTS.has(name)) index++;
      if (name === 'startObject' || name === 'startArray') depth++;
      else if (name === 'endObject' || name === 'endArray') depth--;
      else if (name === 'startString' || name === 'startKey') chars = 0;
      else if (name === 'stringChunk' || name === 'keyChunk') {
        chars += token.value?.length ?? 0;
        if (chars > max) {
          const where = index >= 0 ? `${field}[${index}]` : field;
          done(new KbChatFileError('too_large', file, `holds a JSON string longer than ${max} characters`, where));
          return;
        }
      }
      done(null, token);
    },
  });
}

/** Streams the elements of a top-level JSON array; a string longer than `maxString` characters is `too_large`. */
export async function* streamJsonArray(
  source: Readable,
  file: string,
  field: string,
  maxString: number = CHAT_FILE_DEFAULTS.max_string_chars,
): AsyncGenerator<unknown> {
  const parser = new Parser();
  const bound = stringBound(maxString, file, field);
  const pipeline = StreamArray.make();
  source.on('error', (e) => pipeline.destroy(e));
  parser.on('error', (e) => pipeline.destroy(e));
  bound.on('error', (e) => pipeline.destroy(e));
  source.pipe(parser).pipe(bound).pipe(pipeline);
  try {
    for await (const item of pipeline as AsyncIterable<{ key: number; value: unknown }>) yield item.value;
  } catch (e) {
    if (e instanceof KbError) throw e;
    const msg = e instanceof Error ? e.message : String(e);
    throw new KbChatFileError('malformed_json', file, `malformed JSON: ${msg}`, field);
  } finally {
    source.unpipe(parser);
    source.destroy();
    parser.destroy();
    bound.destroy();
    pipeline.destroy();
  }
}

/** A message text longer than the bound (one read whole: a JSON document or a transcript) is `too_large`. */
function checkTexts(conv: Conversation, max: number, file: string, field: string): Conversation {
  for (const t of conv.turns)
    if (t.text.length > max)
      throw new KbChatFileError(
        'too_large',
        file,
        `message ${t.message_id} has a text longer than ${max} characters`,
        field,
      );
  return conv;
}

function firstChar(path: string): string {
  const buf = Buffer.alloc(4096);
  const h = openSync(path, 'r');
  try {
    const n = readSync(h, buf, 0, buf.length, 0);
    return (
      buf
        .subarray(0, n)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trimStart()[0] ?? ''
    );
  } finally {
    closeSync(h);
  }
}

const iso = (v: unknown): string | undefined =>
  typeof v === 'number' && Number.isFinite(v)
    ? new Date(v * 1000).toISOString()
    : typeof v === 'string'
      ? v
      : undefined;

interface GptNode {
  id?: string;
  parent?: string | null;
  children?: string[];
  message?: GptMessage | null;
}
interface GptMessage {
  id?: string;
  author?: { role?: string; name?: string | null };
  create_time?: number | null;
  content?: { content_type?: string; parts?: unknown[]; text?: string };
  metadata?: Record<string, unknown>;
}

/** A ChatGPT conversation: the current branch of its message tree, from the root to `current_node`. */
export function chatgptConversation(c: unknown, file: string, field: string): Conversation {
  if (c === null || typeof c !== 'object')
    throw new KbChatFileError('invalid_format', file, 'a conversation must be an object', field);
  const conv = c as {
    mapping?: Record<string, GptNode>;
    current_node?: string;
    id?: string;
    conversation_id?: string;
    title?: string;
  };
  const mapping = conv.mapping;
  if (!mapping || typeof mapping !== 'object')
    throw new KbChatFileError(
      'invalid_format',
      file,
      'ChatGPT conversation without a mapping (message tree)',
      `${field}.mapping`,
    );
  let leaf = conv.current_node && mapping[conv.current_node] ? conv.current_node : undefined;
  if (!leaf) {
    // No current node: follow the last child from the root (the most recent branch).
    const root = Object.keys(mapping).find((k) => !mapping[k]?.parent || !mapping[mapping[k]!.parent!]);
    leaf = root;
    const seen = new Set<string>();
    while (leaf && mapping[leaf]?.children?.length && !seen.has(leaf)) {
      seen.add(leaf);
      leaf = mapping[leaf]!.children![mapping[leaf]!.children!.length - 1];
    }
  }
  const chain: GptNode[] = [];
  const seen = new Set<string>();
  for (let id = leaf; id && mapping[id] && !seen.has(id); id = mapping[id]!.parent ?? undefined) {
    seen.add(id);
    chain.push(mapping[id]!);
  }
  chain.reverse();
  const turns: ChatTurn[] = [];
  for (const node of chain) {
    const m = node.message;
    if (!m) continue;
    const role = m.author?.role;
    if (role !== 'user' && role !== 'assistant') continue;
    if (m.metadata?.is_visually_hidden_from_conversation) continue;
    const ct = m.content?.content_type;
    if (ct !== 'text' && ct !== 'multimodal_text') continue;
    const text = (m.content?.parts ?? []).filter((p): p is string => typeof p === 'string').join('\n');
    if (text.trim() === '') continue;
    const turn: ChatTurn = { role, text, message_id: String(m.id ?? node.id ?? turns.length) };
    const at = iso(m.create_time);
    if (at) turn.created_at = at;
    turns.push(turn);
  }
  const out: Conversation = {
    conversation_id: String(conv.conversation_id ?? conv.id ?? field),
    platform: 'chatgpt',
    turns,
  };
  if (typeof conv.title === 'string') out.title = conv.title;
  return out;
}

/** A Claude conversation: `chat_messages` with sender human/assistant and text or content blocks. */
export function claudeConversation(c: unknown, file: string, field: string): Conversation {
  if (c === null || typeof c !== 'object')
    throw new KbChatFileError('invalid_format', file, 'a conversation must be an object', field);
  const conv = c as { uuid?: string; name?: string; chat_messages?: unknown[] };
  if (!Array.isArray(conv.chat_messages))
    throw new KbChatFileError(
      'invalid_format',
      file,
      'Claude conversation without chat_messages',
      `${field}.chat_messages`,
    );
  const turns: ChatTurn[] = [];
  conv.chat_messages.forEach((raw, i) => {
    const m = raw as {
      uuid?: string;
      sender?: string;
      text?: string;
      content?: { type?: string; text?: string }[];
      created_at?: string;
    };
    if (!m || typeof m !== 'object')
      throw new KbChatFileError(
        'invalid_format',
        file,
        'a chat message must be an object',
        `${field}.chat_messages[${i}]`,
      );
    const role = m.sender === 'human' ? 'user' : m.sender === 'assistant' ? 'assistant' : null;
    if (!role) return;
    const blocks = Array.isArray(m.content)
      ? m.content.filter((b) => b && b.type === 'text' && typeof b.text === 'string').map((b) => b.text!)
      : [];
    const text = blocks.length ? blocks.join('\n') : typeof m.text === 'string' ? m.text : '';
    if (text.trim() === '') return;
    const turn: ChatTurn = { role, text, message_id: String(m.uuid ?? i) };
    if (typeof m.created_at === 'string') turn.created_at = m.created_at;
    turns.push(turn);
  });
  const out: Conversation = { conversation_id: String(conv.uuid ?? field), platform: 'claude', turns };
  if (typeof conv.name === 'string' && conv.name) out.title = conv.name;
  return out;
}

function conversationOf(c: unknown, platform: ChatPlatform, file: string, field: string): Conversation {
  const o = c as Record<string, unknown> | null;
  const kind =
    o && typeof o === 'object'
      ? 'mapping' in o
        ? 'chatgpt'
        : 'chat_messages' in o
          ? 'claude'
          : 'messages' in o
            ? 'json'
            : null
      : null;
  if (platform !== 'auto' && platform !== 'json' && kind !== platform) {
    throw new KbChatFileError(
      'invalid_format',
      file,
      `expected a ${platform} conversation, found ${kind ?? 'something else'}`,
      field,
    );
  }
  if (kind === 'chatgpt') return chatgptConversation(c, file, field);
  if (kind === 'claude') return claudeConversation(c, file, field);
  if (kind === 'json') {
    const conv = o as { messages: unknown; id?: unknown; conversation_id?: unknown; title?: unknown };
    let turns: ChatTurn[];
    try {
      turns = normalizeMessages(conv.messages, `${field}.messages`);
    } catch (e) {
      if (e instanceof KbValidationError) throw new KbChatFileError(e.code, file, e.message, e.field);
      throw e;
    }
    const out: Conversation = {
      conversation_id: String(conv.conversation_id ?? conv.id ?? basename(file)),
      platform: 'json',
      turns,
    };
    if (typeof conv.title === 'string') out.title = conv.title;
    return out;
  }
  throw new KbChatFileError(
    'invalid_format',
    file,
    'not a conversation (expected mapping, chat_messages or messages)',
    field,
  );
}

/** 'User:' / 'Assistant:' turns; lines without a speaker continue the previous turn. */
export function parseTranscript(text: string, conversationId: string): Conversation {
  const turns: ChatTurn[] = [];
  const speaker = /^\s*(user|human|me|you|assistant|ai|chatgpt|claude|gpt|bot|system)\s*:\s?(.*)$/i;
  let cur: ChatTurn | null = null;
  let sawSpeaker = false;
  const flush = () => {
    if (cur && cur.text.trim() !== '' && cur.role !== 'system') turns.push({ ...cur, text: cur.text.trim() });
  };
  for (const line of text.split(/\r?\n/)) {
    const m = speaker.exec(line);
    if (m) {
      flush();
      sawSpeaker = true;
      const who = m[1]!.toLowerCase();
      const role: ChatTurn['role'] =
        who === 'system' ? 'system' : ['user', 'human', 'me'].includes(who) ? 'user' : 'assistant';
      cur = { role, text: m[2] ?? '', message_id: String(turns.length + (cur ? 1 : 0)) };
    } else if (cur) cur.text += `\n${line}`;
    else if (line.trim() !== '') cur = { role: 'user', text: line, message_id: '0' };
  }
  flush();
  for (const [i, t] of turns.entries()) t.message_id = String(i);
  void sawSpeaker;
  return { conversation_id: conversationId, platform: 'text', turns };
}

/**
 * Reads a chat file as conversations. `platform: 'auto'` detects: a ZIP holding conversations.json
 * (ChatGPT or Claude, told apart by each conversation's shape), JSON, or text.
 */
export async function* readChatFile(
  path: string,
  platform: ChatPlatform = 'auto',
  limits: ChatFileLimits = {},
): AsyncGenerator<Conversation> {
  if (!CHAT_PLATFORMS.includes(platform)) {
    throw new KbValidationError(
      'unknown_platform',
      'platform',
      `unknown platform '${String(platform)}'; use one of ${CHAT_PLATFORMS.join(', ')}`,
    );
  }
  let size: number;
  try {
    const st = statSync(path);
    if (!st.isFile()) throw new Error('not a file');
    size = st.size;
  } catch {
    throw new KbChatFileError('not_found', path, 'cannot be read (no such file or no permission)');
  }
  if (size === 0) throw new KbChatFileError('empty_text', path, 'the file is empty');
  const maxDoc = limits.max_document_bytes ?? 256 * 1024 * 1024;
  const maxString = maxStringChars(limits);
  const zip = looksLikeZip(path);
  if (!zip && /\.zip$/i.test(path)) {
    throw new KbArchiveError('not_zip', path, 'is not a ZIP archive (no ZIP signature)');
  }
  if (zip) {
    if (platform === 'json' || platform === 'text')
      throw new KbChatFileError('invalid_format', path, `is a ZIP archive, not ${platform}`);
    const archive = await ZipArchive.open(path, limits);
    try {
      const entry = archive.names().find((n) => n === 'conversations.json' || n.endsWith('/conversations.json'));
      if (!entry) {
        const slack = archive.has('channels.json') || archive.has('users.json');
        throw new KbChatFileError(
          'unknown_platform',
          path,
          slack
            ? 'looks like a Slack workspace export: use ingestTeamChat'
            : 'no conversations.json: not a ChatGPT or Claude data export',
        );
      }
      let i = 0;
      for await (const c of streamJsonArray(await archive.stream(entry), path, entry, maxString)) {
        yield checkTexts(conversationOf(c, platform, path, `${entry}[${i}]`), maxString, path, `${entry}[${i}]`);
        i++;
      }
    } finally {
      archive.close();
    }
    return;
  }
  const first = firstChar(path);
  const asJson =
    platform === 'chatgpt' ||
    platform === 'claude' ||
    platform === 'json' ||
    (platform === 'auto' && (first === '{' || first === '['));
  if (asJson) {
    if (first === '[') {
      // A bare conversations.json, or an array of messages (one conversation).
      const items: unknown[] = [];
      let i = 0;
      for await (const item of streamJsonArray(createReadStream(path), path, '$', maxString)) {
        const o = item as Record<string, unknown>;
        const isMessage = o && typeof o === 'object' && 'role' in o;
        if (isMessage && platform !== 'chatgpt' && platform !== 'claude') {
          items.push(item);
          if (items.length > 1_000_000)
            throw new KbChatFileError('too_large', path, 'more than 1,000,000 messages in one conversation');
        } else {
          if (items.length)
            throw new KbChatFileError('invalid_format', path, 'mixes messages and conversations', `$[${i}]`);
          yield checkTexts(conversationOf(item, platform, path, `$[${i}]`), maxString, path, `$[${i}]`);
        }
        i++;
      }
      if (items.length) yield checkTexts(conversationOf({ messages: items }, 'json', path, '$'), maxString, path, '$');
      return;
    }
    if (size > maxDoc)
      throw new KbChatFileError('too_large', path, `a single JSON document larger than ${maxDoc} bytes`);
    let doc: unknown;
    try {
      doc = JSON.parse((await readFile(path, 'utf8')).replace(/^\uFEFF/, ''));
    } catch (e) {
      throw new KbChatFileError('malformed_json', path, `malformed JSON: ${(e as Error).message}`);
    }
    yield checkTexts(conversationOf(doc, platform === 'auto' ? 'json' : platform, path, '$'), maxString, path, '$');
    return;
  }
  if (size > maxDoc) throw new KbChatFileError('too_large', path, `a transcript larger than ${maxDoc} bytes`);
  const text = await readFile(path, 'utf8');
  if (text.trim() === '') throw new KbChatFileError('empty_text', path, 'the transcript holds no text');
  yield checkTexts(parseTranscript(text, basename(path)), maxString, path, '$');
}
