// Hosted-chat message formats reduced to plain turns. OpenAI-style content is a string or an array of
// parts ({ type: 'text' | 'input_text' | 'output_text', text }); Anthropic-style content is a string or an
// array of blocks ({ type: 'text', text }). Tool calls, tool results, images, audio and files carry no
// prose to extract and are skipped; a malformed message is an error naming its index.
import { KbValidationError } from '@evident/kb-core';

export interface ChatTurn {
  role: 'user' | 'assistant' | 'system';
  text: string;
  /** Stable within the conversation: the message's own id, else its position. */
  message_id: string;
  author?: string;
  created_at?: string;
}

export interface Conversation {
  conversation_id: string;
  title?: string;
  platform: string;
  turns: ChatTurn[];
}

const TEXT_PARTS = new Set(['text', 'input_text', 'output_text']);
const ROLE_ALIASES: Record<string, ChatTurn['role'] | null> = {
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  model: 'assistant',
  bot: 'assistant',
  system: 'system',
  developer: 'system',
  tool: null,
  function: null,
  ipython: null,
};

/** Text of one message's content; `null` when it holds nothing textual (only tools, images...). */
export function contentText(content: unknown, field: string): string | null {
  if (content === null || content === undefined) return null;
  if (typeof content === 'string') return content;
  if (!Array.isArray(content))
    throw new KbValidationError('invalid_type', field, 'must be a string or an array of content parts');
  const texts: string[] = [];
  content.forEach((part, i) => {
    if (typeof part === 'string') {
      texts.push(part);
      return;
    }
    if (part === null || typeof part !== 'object')
      throw new KbValidationError('invalid_type', `${field}[${i}]`, 'must be a content part object');
    const p = part as { type?: unknown; text?: unknown };
    if (typeof p.type !== 'string')
      throw new KbValidationError('missing_field', `${field}[${i}].type`, 'content parts need a type');
    if (TEXT_PARTS.has(p.type)) {
      if (typeof p.text !== 'string')
        throw new KbValidationError('invalid_type', `${field}[${i}].text`, 'must be a string');
      texts.push(p.text);
    }
    // image_url, image, input_audio, file, tool_use, tool_result, tool_call, thinking...: skipped.
  });
  return texts.length ? texts.join('\n') : null;
}

/** Normalises OpenAI- or Anthropic-style messages; system prompts and tool traffic are left out. */
export function normalizeMessages(messages: unknown, field = 'messages'): ChatTurn[] {
  if (!Array.isArray(messages)) throw new KbValidationError('invalid_type', field, 'must be an array of messages');
  const turns: ChatTurn[] = [];
  messages.forEach((m, i) => {
    const f = `${field}[${i}]`;
    if (m === null || typeof m !== 'object' || Array.isArray(m))
      throw new KbValidationError('invalid_type', f, 'must be a message object { role, content }');
    const msg = m as { role?: unknown; content?: unknown; id?: unknown; name?: unknown; created_at?: unknown };
    if (typeof msg.role !== 'string')
      throw new KbValidationError('missing_field', `${f}.role`, 'is required (user, assistant, system, tool)');
    const role = ROLE_ALIASES[msg.role.toLowerCase()];
    if (role === undefined) throw new KbValidationError('invalid_value', `${f}.role`, `unknown role '${msg.role}'`);
    if (!('content' in msg) && !('tool_calls' in msg))
      throw new KbValidationError('missing_field', `${f}.content`, 'is required');
    const text = contentText(msg.content, `${f}.content`);
    if (role === null || role === 'system' || text === null || text.trim() === '') return;
    const turn: ChatTurn = {
      role,
      text,
      message_id: typeof msg.id === 'string' || typeof msg.id === 'number' ? String(msg.id) : String(i),
    };
    if (typeof msg.name === 'string') turn.author = msg.name;
    if (typeof msg.created_at === 'string') turn.created_at = msg.created_at;
    turns.push(turn);
  });
  return turns;
}
