// A local HTTP server speaking the OpenAI-compatible chat-completions wire (what the AI SDK's DeepSeek, Groq,
// Mistral and xAI providers call), so that extraction "llm" / "smart" runs the real provider client against it.
// The "model" answers each prompt with `answer(prompt)` as its JSON output; every request is recorded.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeChatProvider {
  /** Base URL for the provider's SDK (…/v1). */
  baseUrl: string;
  prompts: string[];
  close(): Promise<void>;
}

function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (Array.isArray(v)) return v.map(textOf).join('\n');
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.text === 'string') return o.text;
    if ('content' in o) return textOf(o.content);
  }
  return '';
}

export async function startFakeChatProvider(answer: (prompt: string) => unknown): Promise<FakeChatProvider> {
  const prompts: string[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || !(req.url ?? '').split('?')[0]!.endsWith('/chat/completions')) {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"no such route"}}');
        return;
      }
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { model: string; messages: unknown[] };
      const prompt = textOf(body.messages.filter((m) => (m as { role?: string }).role === 'user'));
      prompts.push(prompt);
      const usage = { prompt_tokens: 120, completion_tokens: 40, total_tokens: 160 };
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 1_700_000_000,
          model: body.model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant', content: JSON.stringify(answer(prompt)) },
              finish_reason: 'stop',
            },
          ],
          usage,
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    prompts,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
