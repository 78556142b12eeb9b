import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  callStructured,
  KbProviderError,
  PROVIDER_NAMES,
  PROVIDERS,
  resolveProvider,
  TokenBudget,
  type ProviderName,
} from '../src/providers/index.js';
import { open } from './helpers.js';
import { tempKb, configureCurator } from './helpers.js';
import { baseUrlFor, startFakeProvider, type FakeProvider } from './fixtures/extraction/fake-provider.js';

const schema = z.object({ answer: z.string(), n: z.number().int() });

function provider(fake: FakeProvider, name: ProviderName, extra: Record<string, unknown> = {}) {
  return resolveProvider({
    provider: name,
    api_key: `test-key-${name}`,
    base_url: baseUrlFor(fake, name),
    backoff_ms: 5,
    // Generous: an answer from the local fake must never time out on a busy machine; the timeout test sets its own.
    timeout_ms: 30_000,
    ...extra,
  });
}

const WIRE: Record<ProviderName, string> = {
  openai: 'openai',
  anthropic: 'anthropic',
  google: 'google',
  mistral: 'chat',
  groq: 'chat',
  deepseek: 'chat',
  xai: 'chat',
};

test('each of the seven providers: real SDK client, its wire format, schema-validated object', async (t) => {
  const fake = await startFakeProvider((prompt) => ({
    answer: `echo:${prompt.includes('ping') ? 'ping' : '?'}`,
    n: 7,
  }));
  t.after(() => fake.close());
  assert.deepEqual([...PROVIDER_NAMES].sort(), ['anthropic', 'deepseek', 'google', 'groq', 'mistral', 'openai', 'xai']);
  for (const name of PROVIDER_NAMES) {
    const before = fake.requests.length;
    const p = provider(fake, name, { max_output_tokens: 321 });
    const budget = new TokenBudget(10_000);
    const out = await callStructured(p, { system: 'sys', prompt: 'ping', schema, budget });
    assert.deepEqual(out, { answer: 'echo:ping', n: 7 }, name);
    assert.equal(fake.requests.length, before + 1, `${name}: one request`);
    const req = fake.requests[before]!;
    assert.equal(req.wire, WIRE[name], `${name} speaks ${WIRE[name]}`);
    const auth = String(req.headers.authorization ?? req.headers['x-api-key'] ?? req.headers['x-goog-api-key'] ?? '');
    assert.ok(auth.includes(`test-key-${name}`), `${name} sends its key`);
    // The output-token cap reaches the wire under the provider's own field name.
    const body = JSON.stringify(req.body);
    assert.ok(body.includes('321'), `${name}: max output tokens sent`);
    assert.equal(budget.used, 160, `${name}: usage counted`);
  }
});

test('retries 429 and 5xx with backoff (honouring retry-after-ms), then succeeds', async (t) => {
  const fake = await startFakeProvider(() => ({ answer: 'ok', n: 1 }));
  t.after(() => fake.close());
  fake.script.push({ status: 429, headers: { 'retry-after-ms': '20' } }, { status: 503 }, { status: 500 });
  const started = Date.now();
  const out = await callStructured(provider(fake, 'anthropic', { max_retries: 3, backoff_ms: 10 }), {
    system: 's',
    prompt: 'p',
    schema,
  });
  assert.deepEqual(out, { answer: 'ok', n: 1 });
  assert.equal(fake.requests.length, 4);
  // 20 ms (retry-after) + 20 ms + 40 ms of backoff at least.
  assert.ok(Date.now() - started >= 70, 'waited between attempts');
});

test('gives up after max_retries with a typed error; client errors are not retried', async (t) => {
  const fake = await startFakeProvider(() => ({ answer: 'ok', n: 1 }));
  t.after(() => fake.close());
  fake.script.push({ status: 429 }, { status: 429 }, { status: 429 });
  await assert.rejects(
    callStructured(provider(fake, 'openai', { max_retries: 2 }), { system: 's', prompt: 'p', schema }),
    (e: unknown) => {
      assert.ok(e instanceof KbProviderError);
      assert.equal(e.code, 'provider_rate_limited');
      assert.equal(e.status, 429);
      assert.equal(e.provider, 'openai');
      assert.match(e.message, /after 3 attempts/);
      return true;
    },
  );
  assert.equal(fake.requests.length, 3);
  fake.requests.length = 0;
  fake.script.push({ status: 401 });
  await assert.rejects(callStructured(provider(fake, 'groq'), { system: 's', prompt: 'p', schema }), {
    code: 'provider_auth',
  });
  assert.equal(fake.requests.length, 1, '401 is not retried');
});

test('a slow answer times out per attempt and is retried', async (t) => {
  const fake = await startFakeProvider(() => ({ answer: 'late', n: 2 }));
  t.after(() => fake.close());
  // The delayed answer comes long after the timeout, and the timeout leaves a prompt answer (the retry) ample time
  // on a busy machine: the outcome does not depend on its speed.
  fake.script.push({ delay_ms: 3000 });
  const out = await callStructured(provider(fake, 'mistral', { timeout_ms: 1000, max_retries: 1 }), {
    system: 's',
    prompt: 'p',
    schema,
  });
  assert.deepEqual(out, { answer: 'late', n: 2 });
  assert.equal(fake.requests.length, 2);
  fake.script.push({ delay_ms: 3000 }, { delay_ms: 3000 });
  await assert.rejects(
    callStructured(provider(fake, 'mistral', { timeout_ms: 1000, max_retries: 1 }), {
      system: 's',
      prompt: 'p',
      schema,
    }),
    { code: 'provider_timeout' },
  );
});

test('output that fails the schema is retried, then reported as invalid_output', async (t) => {
  const fake = await startFakeProvider(() => ({ answer: 'fine', n: 3 }));
  t.after(() => fake.close());
  fake.script.push({ text: '{"answer": 12}' });
  assert.deepEqual(
    await callStructured(provider(fake, 'google', { max_retries: 1 }), { system: 's', prompt: 'p', schema }),
    { answer: 'fine', n: 3 },
  );
  fake.script.push({ text: 'not json at all' }, { text: '{"answer":"x","n":1.5}' });
  await assert.rejects(
    callStructured(provider(fake, 'deepseek', { max_retries: 1 }), { system: 's', prompt: 'p', schema }),
    { code: 'invalid_output' },
  );
});

test('token budget: prompts over max_input_chars and calls after the budget is spent are refused', async (t) => {
  const fake = await startFakeProvider(() => ({ answer: 'x', n: 0 }));
  t.after(() => fake.close());
  const p = provider(fake, 'xai', { max_input_chars: 100 });
  await assert.rejects(callStructured(p, { system: 's', prompt: 'x'.repeat(101), schema }), { code: 'token_budget' });
  const budget = new TokenBudget(100);
  await callStructured(p, { system: 's', prompt: 'short', schema, budget });
  assert.ok(budget.exhausted);
  await assert.rejects(callStructured(p, { system: 's', prompt: 'short', schema, budget }), { code: 'token_budget' });
  assert.equal(fake.requests.length, 1);
});

test('missing keys and unknown providers fail at configureCurator time, naming the variable', async (t) => {
  const kb = tempKb();
  t.after(kb.cleanup);
  const db = await open(kb.path);
  t.after(() => db.close());
  for (const name of PROVIDER_NAMES) {
    assert.throws(
      () => configureCurator(db, name, {}),
      (e: unknown) => {
        assert.ok(e instanceof KbProviderError);
        assert.equal(e.code, 'missing_api_key');
        assert.ok(e.message.includes(PROVIDERS[name].env[0]!), e.message);
        return true;
      },
    );
  }
  assert.throws(() => configureCurator(db, 'cohere', {}), { code: 'unknown_provider' });
  assert.throws(() => configureCurator(db, 'openai:', { OPENAI_API_KEY: 'k' }), { code: 'invalid_model' });
  assert.deepEqual(configureCurator(db, 'anthropic:claude-x', { ANTHROPIC_API_KEY: 'k' }), {
    curator: 'anthropic',
    model: 'claude-x',
  });
  assert.deepEqual(configureCurator(db, 'google', { GOOGLE_GENERATIVE_AI_API_KEY: 'k' }), {
    curator: 'google',
    model: PROVIDERS.google.default_model,
  });
  assert.deepEqual(configureCurator(db, 'heuristic'), { curator: 'heuristic' });
  // The key never shows up in what configureCurator returns.
  assert.ok(
    !JSON.stringify(configureCurator(db, 'openai', { OPENAI_API_KEY: 'sk-secret-123' })).includes('sk-secret-123'),
  );
});
