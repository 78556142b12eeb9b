// Slack workspace export: channels.json (and groups.json for private channels), users.json, and one
// folder per channel holding one JSON array of messages per day. User and channel mentions are resolved
// to names, thread replies keep their thread root, and joins, bots and other system messages are skipped.
import { basename } from 'node:path';
import { type ChatFileLimits, KbValidationError } from '@evident/kb-core';
import { KbArchiveError, looksLikeZip, ZipArchive } from '../archive/zip.js';
import { CHAT_FILE_DEFAULTS, KbChatFileError, streamJsonArray } from './files.js';

export interface SlackMessage {
  workspace: string;
  channel: string;
  channel_id: string;
  ts: string;
  thread_ts?: string;
  user_id?: string;
  user_name: string;
  text: string;
  posted_at: string;
  /** Archive member the message was read from. */
  entry: string;
}

// Subtypes that are prose written by a person; every other subtype (channel_join, bot_message,
// channel_topic, pinned_item, ...) is system traffic.
const HUMAN_SUBTYPES = new Set(['thread_broadcast', 'file_share', 'me_message']);

function parseList(text: string, file: string, entry: string): unknown[] {
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new KbChatFileError('malformed_json', file, `malformed JSON: ${(e as Error).message}`, entry);
  }
  if (!Array.isArray(v)) throw new KbChatFileError('invalid_format', file, 'must hold a JSON array', entry);
  return v;
}

export interface SlackReadOptions extends ChatFileLimits {
  channels?: string[];
}

export async function* readSlackExport(path: string, options: SlackReadOptions = {}): AsyncGenerator<SlackMessage> {
  if (
    options.channels !== undefined &&
    (!Array.isArray(options.channels) || options.channels.some((c) => typeof c !== 'string' || c.trim() === ''))
  ) {
    throw new KbValidationError('invalid_type', 'channels', 'must be an array of channel names');
  }
  let zip: boolean;
  try {
    zip = looksLikeZip(path);
  } catch {
    throw new KbArchiveError('not_found', path, 'cannot be read (no such file or no permission)');
  }
  if (!zip) throw new KbArchiveError('not_zip', path, 'is not a ZIP archive (a Slack export is a ZIP)');
  const archive = await ZipArchive.open(path, options);
  try {
    if (!archive.has('channels.json')) {
      throw new KbChatFileError(
        'unknown_platform',
        path,
        archive.names().some((n) => n.endsWith('conversations.json'))
          ? 'looks like a ChatGPT/Claude export: use ingestChatFile'
          : 'no channels.json: not a Slack workspace export',
      );
    }
    const workspace = basename(path).replace(/\.zip$/i, '');
    const channels = await readChannels(archive, path);
    const users = await readUsers(archive, path);
    const wanted = wantedChannels(options, channels, path);
    const resolveText = textResolver(users, new Map([...channels].map(([name, id]) => [id, name])));
    for (const channel of wanted) {
      const days = archive
        .names()
        .filter((n) => n.startsWith(`${channel}/`) && n.endsWith('.json'))
        .sort();
      for (const entry of days) {
        let i = 0;
        for await (const raw of streamJsonArray(
          await archive.stream(entry),
          path,
          entry,
          options.max_string_chars ?? CHAT_FILE_DEFAULTS.max_string_chars,
        )) {
          const field = `${entry}[${i++}]`;
          const place = { workspace, channel, channel_id: channels.get(channel)!, entry };
          const msg = slackMessage(raw, place, users, resolveText, path, field);
          if (msg) yield msg;
        }
      }
    }
  } finally {
    archive.close();
  }
}

/** Channel name -> id, from channels.json and groups.json (private channels). */
async function readChannels(archive: ZipArchive, path: string): Promise<Map<string, string>> {
  const channels = new Map<string, string>();
  for (const member of ['channels.json', 'groups.json']) {
    if (!archive.has(member)) continue;
    parseList(await archive.text(member), path, member).forEach((c, i) => {
      const ch = c as { id?: unknown; name?: unknown };
      if (typeof ch?.name !== 'string')
        throw new KbChatFileError('invalid_format', path, 'channel without a name', `${member}[${i}]`);
      channels.set(ch.name, typeof ch.id === 'string' ? ch.id : ch.name);
    });
  }
  return channels;
}

/** User id -> the name shown for them, from users.json. */
async function readUsers(archive: ZipArchive, path: string): Promise<Map<string, string>> {
  const users = new Map<string, string>();
  if (!archive.has('users.json')) return users;
  for (const u of parseList(await archive.text('users.json'), path, 'users.json')) {
    const user = u as {
      id?: string;
      name?: string;
      real_name?: string;
      profile?: { display_name?: string; real_name?: string };
    };
    if (typeof user?.id !== 'string') continue;
    users.set(user.id, user.profile?.display_name || user.real_name || user.profile?.real_name || user.name || user.id);
  }
  return users;
}

/** The channels to read: every one, or those of `options.channels` (an unknown one is an error). */
function wantedChannels(options: SlackReadOptions, channels: Map<string, string>, path: string): string[] {
  if (!options.channels) return [...channels.keys()];
  const requested = options.channels.map((c) => c.replace(/^#/, ''));
  const unknown = requested.filter((c) => !channels.has(c));
  if (unknown.length) {
    throw new KbValidationError(
      'unknown_channel',
      'channels',
      `no channel ${unknown.map((c) => `'${c}'`).join(', ')} in ${path} (has: ${[...channels.keys()].join(', ')})`,
    );
  }
  return requested;
}

/** Slack's markup to plain text: user and channel mentions by name, links by their label, entities decoded. */
function textResolver(users: Map<string, string>, channelIds: Map<string, string>): (t: string) => string {
  return (t) =>
    t
      .replace(/<@([A-Z0-9]+)(?:\|([^>]+))?>/g, (_m, id: string, label?: string) => `@${users.get(id) ?? label ?? id}`)
      .replace(
        /<#([A-Z0-9]+)(?:\|([^>]*))?>/g,
        (_m, id: string, label?: string) => `#${label || channelIds.get(id) || id}`,
      )
      .replace(/<!(here|channel|everyone)[^>]*>/g, '@$1')
      .replace(/<(https?:[^|>]+)\|([^>]+)>/g, '$2')
      .replace(/<(https?:[^>]+)>/g, '$1')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&amp;/g, '&');
}

/** One element of a day's message array as a SlackMessage, or null for system traffic, bots and empty text. */
function slackMessage(
  raw: unknown,
  place: Pick<SlackMessage, 'workspace' | 'channel' | 'channel_id' | 'entry'>,
  users: Map<string, string>,
  resolveText: (t: string) => string,
  path: string,
  field: string,
): SlackMessage | null {
  if (raw === null || typeof raw !== 'object')
    throw new KbChatFileError('invalid_format', path, 'a message must be an object', field);
  const m = raw as {
    type?: string;
    subtype?: string;
    bot_id?: string;
    user?: string;
    text?: unknown;
    ts?: unknown;
    thread_ts?: unknown;
    user_profile?: { display_name?: string; real_name?: string };
  };
  if (m.type !== undefined && m.type !== 'message') return null;
  if ((m.subtype && !HUMAN_SUBTYPES.has(m.subtype)) || m.bot_id) return null;
  if (typeof m.text !== 'string' || m.text.trim() === '') return null;
  if (typeof m.ts !== 'string') throw new KbChatFileError('invalid_format', path, 'message without a ts', field);
  // Deliberate likeness: this object literal is alike in shape only to kb-core's claim_ingested event (write-path.ts).
  const seconds = Number.parseFloat(m.ts);
  const msg: SlackMessage = {
    workspace: place.workspace,
    channel: place.channel,
    channel_id: place.channel_id,
    ts: m.ts,
    user_name:
      (m.user && users.get(m.user)) || m.user_profile?.display_name || m.user_profile?.real_name || m.user || 'unknown',
    text: resolveText(m.text),
    posted_at: Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : m.ts,
    entry: place.entry,
  };
  if (m.user) msg.user_id = m.user;
  if (typeof m.thread_ts === 'string' && m.thread_ts !== m.ts) msg.thread_ts = m.thread_ts;
  return msg;
}
