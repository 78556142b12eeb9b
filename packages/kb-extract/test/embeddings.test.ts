import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import {
  createEmbeddingPort,
  EMBEDDING_PROVIDER_NAMES,
  EMBEDDING_PROVIDERS,
  KbEmbeddingError,
  type EmbeddingConfig,
  type EmbeddingProviderName,
} from '../src/embeddings/index.js';
import { batchRanges } from '../src/embeddings/batches.js';
import { retryAfterMs } from '../src/providers/retry.js';
import { startFakeEmbedder, vectorOf, type FakeEmbedder } from './fixtures/embeddings/fake-embedder.js';

const MOUNT: Record<EmbeddingProviderName, string> = {
  openai: 'openai',
  google: 'google',
  mistral: 'mistral',
  cohere: 'cohere',
  ollama: 'ollama',
  'openai-compatible': 'compat',
};

/** A port against the fake; generous timeout so a busy machine never times a prompt answer out. */
function port(fake: FakeEmbedder, provider: EmbeddingProviderName, extra: Partial<EmbeddingConfig> = {}) {
  return createEmbeddingPort(
    {
      provider,
      base_url: fake.baseUrl(MOUNT[provider]),
      ...(provider === 'ollama' ? {} : { api_key: `test-key-${provider}` }),
      ...(provider === 'openai-compatible' ? { model: 'bge-small' } : {}),
      backoff_ms: 1,
      timeout_ms: 30_000,
      ...extra,
    },
    {},
  );
}

const texts = (n: number, tag = 't') => Array.from({ length: n }, (_, i) => `${tag} ${i}: olaparib inhibits PARP1`);

function assertVectorsOf(out: Float32Array[], sent: string[], dim: number) {
  assert.equal(out.length, sent.length);
  for (const [i, v] of out.entries()) {
    assert.ok(v instanceof Float32Array);
    assert.deepEqual(v, Float32Array.from(vectorOf(sent[i]!, dim)), `vector ${i} is the one of its own text`);
  }
}

function authOf(headers: Record<string, unknown>): string {
  return String(headers.authorization ?? headers['x-goog-api-key'] ?? '');
}

test('each provider: the real SDK client speaks its wire format (path, model, inputs, key) and gets its vectors', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  assert.deepEqual(
    [...EMBEDDING_PROVIDER_NAMES].sort(),
    ['cohere', 'google', 'mistral', 'ollama', 'openai', 'openai-compatible'].sort(),
  );
  const expected: Record<EmbeddingProviderName, { wire: string; model: string; auth: string }> = {
    openai: { wire: 'openai', model: 'text-embedding-3-small', auth: 'Bearer test-key-openai' },
    google: { wire: 'google-batch', model: 'gemini-embedding-001', auth: 'test-key-google' },
    mistral: { wire: 'openai', model: 'mistral-embed', auth: 'Bearer test-key-mistral' },
    cohere: { wire: 'cohere', model: 'embed-v4.0', auth: 'Bearer test-key-cohere' },
    ollama: { wire: 'openai', model: 'nomic-embed-text', auth: '' },
    'openai-compatible': { wire: 'openai', model: 'bge-small', auth: 'Bearer test-key-openai-compatible' },
  };
  for (const name of EMBEDDING_PROVIDER_NAMES) {
    fake.requests.length = 0;
    // The fake answers 8 entries; the known default models are longer, so those ports are told dim 8.
    const known = name !== 'openai-compatible';
    const p = port(fake, name, known ? { dim: 8 } : {});
    assert.equal(p.dim, known ? 8 : 0, `${name}: dim before the first answer`);
    const sent = texts(3, name);
    assertVectorsOf(await p.embed(sent), sent, 8);
    assert.equal(p.dim, 8);
    assert.equal(fake.requests.length, 1, `${name}: one request`);
    const req = fake.requests[0]!;
    assert.equal(req.mount, MOUNT[name], `${name} called its own base URL`);
    assert.equal(req.wire, expected[name].wire, `${name} speaks ${expected[name].wire}`);
    assert.equal(req.model, expected[name].model, `${name}: default model`);
    assert.deepEqual(req.texts, sent, `${name}: inputs in order`);
    assert.equal(authOf(req.headers), expected[name].auth, `${name}: key header`);
    assert.equal(p.provider, name);
    assert.equal(p.model, expected[name].model);
  }
});

test('wire details: Cohere v2 document type and float vectors; dimension requests where the API shortens vectors', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  await port(fake, 'cohere', { dim: 8 }).embed(['a']);
  const cohere = fake.requests.at(-1)!;
  assert.equal(cohere.path, '/cohere/v2/embed');
  assert.equal(cohere.body.input_type, 'search_document');
  assert.deepEqual(cohere.body.embedding_types, ['float']);

  // OpenAI's text-embedding-3 models and Google are asked for the length; the fake honours it.
  const openai = port(fake, 'openai', { dim: 5 });
  assertVectorsOf(await openai.embed(['x', 'y']), ['x', 'y'], 5);
  assert.equal(fake.requests.at(-1)!.body.dimensions, 5);
  const google = port(fake, 'google', { dim: 6 });
  assertVectorsOf(await google.embed(['one text']), ['one text'], 6);
  const single = fake.requests.at(-1)!;
  assert.equal(single.wire, 'google-single', 'one text goes to embedContent');
  assert.equal(single.body.outputDimensionality, 6);
  assertVectorsOf(await google.embed(['p', 'q']), ['p', 'q'], 6);
  assert.equal(fake.requests.at(-1)!.wire, 'google-batch');

  // ada-002 takes no `dimensions`: nothing is sent, and the 8 entries answered do not pass as 5.
  await assert.rejects(port(fake, 'openai', { model: 'text-embedding-ada-002', dim: 5 }).embed(['z']), {
    code: 'embedding_dimension_mismatch',
  });
  assert.equal(fake.requests.at(-1)!.body.dimensions, undefined);
  // Mistral has no such option: its default model is checked against its known length (1024).
  await assert.rejects(port(fake, 'mistral').embed(['z']), (e: unknown) => {
    assert.ok(e instanceof KbEmbeddingError);
    assert.equal(e.code, 'embedding_dimension_mismatch');
    assert.equal(e.status, 502);
    assert.match(e.message, /8 entries.*expected 1024/);
    return true;
  });
});

test('batching: split by the batch size and by characters, in order; long texts are cut', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  const sent = texts(7);
  assertVectorsOf(await port(fake, 'openai', { dim: 8, batch_size: 3 }).embed(sent), sent, 8);
  assert.deepEqual(
    fake.requests.map((r) => r.texts.length),
    [3, 3, 1],
  );
  assert.deepEqual(
    fake.requests.flatMap((r) => r.texts),
    sent,
  );

  // Provider limits are the defaults: Mistral 32 a request, Google 100, Cohere 96.
  for (const [name, n, sizes] of [
    ['mistral', 70, [32, 32, 6]],
    ['google', 250, [100, 100, 50]],
    ['cohere', 100, [96, 4]],
  ] as const) {
    fake.requests.length = 0;
    const many = texts(n, name);
    assertVectorsOf(await port(fake, name, { dim: 8 }).embed(many), many, 8);
    assert.deepEqual(
      fake.requests.map((r) => r.texts.length),
      sizes,
      name,
    );
  }

  // Mistral's request carries at most 32,000 characters: five texts of 7,000 go as 4 + 1.
  fake.requests.length = 0;
  const long = Array.from({ length: 5 }, (_, i) => `${i}`.repeat(7000));
  await port(fake, 'mistral', { dim: 8 }).embed(long);
  assert.deepEqual(
    fake.requests.map((r) => r.texts.length),
    [4, 1],
  );

  // A text over max_input_chars is cut to it (never inside a surrogate pair); the vector is the cut text's.
  fake.requests.length = 0;
  const emoji = `${'a'.repeat(9)}😀tail`;
  const out = await port(fake, 'openai', { dim: 8, max_input_chars: 10 }).embed([emoji, 'short']);
  assert.deepEqual(fake.requests[0]!.texts, ['a'.repeat(9), 'short']);
  assertVectorsOf(out, ['a'.repeat(9), 'short'], 8);

  assert.deepEqual(batchRanges(['aa', 'bb', 'c', 'dddd'], 10, 4), [
    [0, 2],
    [2, 3],
    [3, 4],
  ]);
  assert.deepEqual(batchRanges([], 3, 10), []);
});

test('retries 429 and 503 (counting attempts, honouring Retry-After), then answers every vector', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  fake.script.push({ status: 429, headers: { 'retry-after-ms': '150' } }, { status: 503 });
  const sent = texts(5);
  const started = Date.now();
  assertVectorsOf(await port(fake, 'openai', { dim: 8, batch_size: 2, max_retries: 2 }).embed(sent), sent, 8);
  // The first batch was sent three times (429, 503, answer), the two others once.
  assert.deepEqual(
    fake.requests.map((r) => r.texts.length),
    [2, 2, 2, 2, 1],
  );
  assert.deepEqual(fake.requests[0]!.texts, fake.requests[2]!.texts);
  assert.ok(Date.now() - started >= 150, 'waited at least what retry-after-ms asked');

  // Retry-After in seconds and as an HTTP date.
  assert.equal(retryAfterMs({ 'retry-after': '2' }), 2000);
  assert.equal(retryAfterMs({ 'retry-after': new Date(10_000).toUTCString() }, 4000), 6000);
  assert.equal(retryAfterMs({ 'retry-after': 'soon' }), undefined);
  assert.equal(retryAfterMs(undefined), undefined);
});

test('gives up after max_retries with a typed error; 4xx is not retried', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  fake.script.push({ status: 429 }, { status: 429 }, { status: 429 });
  await assert.rejects(port(fake, 'cohere', { dim: 8, max_retries: 2 }).embed(['a']), (e: unknown) => {
    assert.ok(e instanceof KbEmbeddingError);
    assert.equal(e.code, 'embedding_rate_limited');
    assert.equal(e.status, 429);
    assert.equal(e.provider, 'cohere');
    assert.match(e.message, /after 3 attempts/);
    return true;
  });
  assert.equal(fake.requests.length, 3);

  fake.requests.length = 0;
  fake.script.push({ status: 500 }, { status: 502 });
  await assert.rejects(port(fake, 'google', { dim: 8, max_retries: 1 }).embed(['a', 'b']), {
    code: 'embedding_provider_error',
    status: 502,
  });
  assert.equal(fake.requests.length, 2);

  fake.requests.length = 0;
  fake.script.push({ status: 401 });
  await assert.rejects(port(fake, 'mistral', { dim: 8 }).embed(['a']), { code: 'embedding_auth', status: 502 });
  fake.script.push({ status: 400 });
  await assert.rejects(port(fake, 'ollama', { dim: 8 }).embed(['a']), { code: 'embedding_provider_error' });
  assert.equal(fake.requests.length, 2, '401 and 400 are not retried');

  // Nobody listening: retried as a network failure, then a typed error.
  const closed = createServer();
  await new Promise<void>((r) => closed.listen(0, '127.0.0.1', () => r()));
  const { port: gone } = closed.address() as AddressInfo;
  await new Promise((r) => closed.close(r));
  await assert.rejects(
    createEmbeddingPort(
      { provider: 'ollama', base_url: `http://127.0.0.1:${gone}/v1`, max_retries: 1, backoff_ms: 1 },
      {},
    ).embed(['a']),
    (e: unknown) => {
      assert.ok(e instanceof KbEmbeddingError);
      assert.equal(e.code, 'embedding_provider_error');
      assert.match(e.message, /Cannot connect to API/);
      assert.match(e.message, /after 2 attempts/);
      return true;
    },
  );
});

test('a slow answer times out per attempt and is retried; every attempt slow: embedding_timeout', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  // The delay is far beyond the timeout, and the timeout leaves the prompt retry ample time on a busy machine.
  fake.script.push({ delay_ms: 4000 });
  const sent = ['x', 'y'];
  assertVectorsOf(await port(fake, 'mistral', { dim: 8, timeout_ms: 1000, max_retries: 1 }).embed(sent), sent, 8);
  assert.equal(fake.requests.length, 2);
  fake.script.push({ delay_ms: 4000 }, { delay_ms: 4000 });
  await assert.rejects(port(fake, 'openai-compatible', { timeout_ms: 1000, max_retries: 1 }).embed(sent), {
    code: 'embedding_timeout',
    status: 504,
  });
  assert.equal(fake.requests.length, 4);
});

test("the caller's signal aborts a call in flight or before it starts", async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  const p = port(fake, 'openai', { dim: 8 });
  await assert.rejects(p.embed(['a'], { signal: AbortSignal.abort() }), { code: 'embedding_aborted' });
  assert.equal(fake.requests.length, 0, 'nothing sent');
  fake.script.push({ delay_ms: 5000 });
  const controller = new AbortController();
  const call = p.embed(['a'], { signal: controller.signal });
  while (fake.requests.length === 0) await new Promise((r) => setTimeout(r, 10));
  controller.abort();
  await assert.rejects(call, { code: 'embedding_aborted' });
  assert.equal(fake.requests.length, 1, 'an abort is not retried');
  // An abort during the backoff ends the wait.
  fake.script.push({ status: 503, headers: { 'retry-after': '20' } });
  const waiting = new AbortController();
  const retrying = p.embed(['b'], { signal: waiting.signal });
  while (fake.requests.length === 1) await new Promise((r) => setTimeout(r, 10));
  waiting.abort();
  await assert.rejects(retrying, { code: 'embedding_aborted' });
});

test('dimension: learned from the first answer and fixed; a wrong length fails the whole call', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  const p = port(fake, 'openai-compatible', { batch_size: 2 });
  assert.equal(p.dim, 0);
  fake.dim = 12;
  await p.embed(['first']);
  assert.equal(p.dim, 12);
  assert.deepEqual(JSON.parse(JSON.stringify(p)), {
    provider: 'openai-compatible',
    model: 'bge-small',
    dim: 12,
    base_url: fake.baseUrl('compat'),
  });
  // Batch one answers right, batch two a shorter vector: nothing is returned.
  fake.script.push({}, { dim: 11 });
  await assert.rejects(p.embed(texts(4)), (e: unknown) => {
    assert.ok(e instanceof KbEmbeddingError);
    assert.equal(e.code, 'embedding_dimension_mismatch');
    assert.match(e.message, /11 entries for texts\[2\]; expected 12/);
    return true;
  });
  assert.equal(p.dim, 12, 'the dimension stays fixed');

  // A given dim is checked from the first answer on.
  fake.dim = 8;
  await assert.rejects(port(fake, 'ollama', { dim: 7 }).embed(['a']), { code: 'embedding_dimension_mismatch' });
  // Empty vectors are no answer (and teach no dimension).
  fake.script.push({ dim: 0 });
  await assert.rejects(port(fake, 'openai-compatible').embed(['a']), { code: 'embedding_invalid_output' });
  // Fewer vectors than texts.
  fake.script.push({ drop: 1 });
  await assert.rejects(port(fake, 'ollama', { dim: 8 }).embed(['a', 'b']), (e: unknown) => {
    assert.ok(e instanceof KbEmbeddingError);
    assert.equal(e.code, 'embedding_invalid_output');
    assert.match(e.message, /1 vectors answered for 2 texts/);
    return true;
  });
});

test('configuration: unknown provider, missing keys and bad options fail at construction, naming the field', () => {
  assert.throws(
    () => createEmbeddingPort({ provider: 'voyage' as EmbeddingProviderName }, {}),
    (e: unknown) => {
      assert.ok(e instanceof KbEmbeddingError);
      assert.equal(e.code, 'embedding_config');
      assert.equal(e.status, 400);
      assert.equal(e.field, 'provider');
      assert.deepEqual(e.problems?.[0]?.path, '/provider');
      assert.match(e.message, /unknown provider 'voyage'; use one of openai, google/);
      return true;
    },
  );
  for (const name of ['openai', 'google', 'mistral', 'cohere'] as const) {
    assert.throws(
      () => createEmbeddingPort({ provider: name }, {}),
      (e: unknown) => {
        assert.ok(e instanceof KbEmbeddingError);
        assert.equal(e.code, 'embedding_config');
        assert.equal(e.field, 'api_key');
        for (const v of EMBEDDING_PROVIDERS[name].env) assert.ok(e.message.includes(v), `${name}: names ${v}`);
        return true;
      },
    );
  }
  // Keys from the environment, under the names the language-model providers use.
  assert.equal(
    createEmbeddingPort({ provider: 'google' }, { GOOGLE_GENERATIVE_AI_API_KEY: 'k' }).model,
    'gemini-embedding-001',
  );
  assert.equal(createEmbeddingPort({ provider: 'google' }, { GOOGLE_API_KEY: 'k' }).dim, 3072);
  assert.equal(createEmbeddingPort({ provider: 'cohere' }, { COHERE_API_KEY: 'k' }).dim, 1536);
  // Ollama needs no key and has a local default; OpenAI-compatible needs a base URL and a model.
  const ollama = createEmbeddingPort({ provider: 'ollama' }, {});
  assert.equal(ollama.base_url, 'http://127.0.0.1:11434/v1');
  assert.equal(ollama.dim, 768);
  assert.equal(createEmbeddingPort({ provider: 'ollama', model: 'nomic-embed-text:latest' }, {}).dim, 768);
  assert.throws(() => createEmbeddingPort({ provider: 'openai-compatible', model: 'm' }, {}), {
    code: 'embedding_config',
    field: 'base_url',
  });
  assert.throws(() => createEmbeddingPort({ provider: 'openai-compatible', base_url: 'http://127.0.0.1:1/v1' }, {}), {
    code: 'embedding_config',
    field: 'model',
  });
  const env = { OPENAI_API_KEY: 'sk-test' };
  for (const [field, value] of [
    ['dim', 0],
    ['dim', 1.5],
    ['batch_size', 2049],
    ['timeout_ms', -1],
    ['max_retries', 11],
    ['model', ''],
    ['model', 'has space'],
  ] as const) {
    assert.throws(
      () => createEmbeddingPort({ provider: 'openai', [field]: value }, env),
      { field },
      `${field}=${value}`,
    );
  }
  assert.throws(() => createEmbeddingPort({ provider: 'mistral', batch_size: 33 }, { MISTRAL_API_KEY: 'k' }), {
    field: 'batch_size',
  });
  assert.throws(() => createEmbeddingPort({ provider: 'openai', colour: 'red' } as EmbeddingConfig, env), {
    field: 'colour',
  });
  assert.throws(() => createEmbeddingPort({ provider: 'google', model: '../x' }, { GOOGLE_API_KEY: 'k' }), {
    field: 'model',
  });
});

test('base URLs are checked before any request: scheme, credentials, query, clear-text keys', () => {
  const env = { OPENAI_API_KEY: 'sk-test' };
  for (const [url, problem] of [
    ['ftp://example.com/v1', /http or https only/],
    ['file:///etc/passwd', /http or https only/],
    ['https://user:pw@example.com/v1', /credentials/],
    ['https://example.com/v1?x=1', /query or fragment/],
    ['http://api.example.com/v1', /clear text/],
    ['not a url', /not a valid URL/],
    [`https://example.com/${'a'.repeat(2048)}`, /at most 2048/],
  ] as const) {
    assert.throws(
      () => createEmbeddingPort({ provider: 'openai', base_url: url }, env),
      (e: unknown) => {
        assert.ok(e instanceof KbEmbeddingError);
        assert.equal(e.code, 'embedding_config');
        assert.equal(e.field, 'base_url');
        assert.match(e.message, problem);
        return true;
      },
      url,
    );
  }
  // Plain http is fine to this machine, and without a key (a LAN server of one's own).
  assert.ok(createEmbeddingPort({ provider: 'openai', base_url: 'http://localhost:8080/v1' }, env));
  assert.ok(createEmbeddingPort({ provider: 'ollama', base_url: 'http://gpu-box.lan:11434/v1' }, {}));
  // A base URL from the environment is checked too, and the error names the variable.
  assert.throws(() => createEmbeddingPort({ provider: 'openai' }, { ...env, OPENAI_BASE_URL: 'gopher://x' }), {
    code: 'embedding_config',
    field: 'OPENAI_BASE_URL',
  });
});

test('input: not an array, non-strings and empty texts are refused before any request; [] answers []', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  const p = port(fake, 'openai', { dim: 8 });
  await assert.rejects(p.embed('text' as unknown as string[]), { code: 'embedding_invalid_input', field: 'texts' });
  await assert.rejects(p.embed(['a', 3 as unknown as string]), { code: 'embedding_invalid_input', field: 'texts[1]' });
  await assert.rejects(p.embed(['a', '  ']), { code: 'embedding_invalid_input', field: 'texts[1]' });
  assert.deepEqual(await p.embed([]), []);
  assert.equal(fake.requests.length, 0);
});

test('the key never shows: not in the port, its JSON, its inspection, nor in errors', async (t) => {
  const fake = await startFakeEmbedder();
  t.after(() => fake.close());
  const secret = 'sk-very-secret-123';
  const p = createEmbeddingPort(
    { provider: 'openai', base_url: fake.baseUrl('openai'), dim: 8, max_retries: 0 },
    { OPENAI_API_KEY: secret },
  );
  assert.ok(!JSON.stringify(p).includes(secret));
  assert.ok(!inspect(p, { depth: 5, showHidden: true }).includes(secret));
  await p.embed(['a']);
  assert.equal(fake.requests[0]!.headers.authorization, `Bearer ${secret}`, 'the key is sent');
  fake.script.push({ status: 401 });
  const e = await p.embed(['a']).catch((x: unknown) => x);
  assert.ok(e instanceof KbEmbeddingError);
  assert.ok(!e.message.includes(secret) && !JSON.stringify(e.problems ?? []).includes(secret));
  assert.throws(
    () => createEmbeddingPort({ provider: 'openai', api_key: secret, base_url: 'http://x.example/v1' }, {}),
    (x: unknown) => x instanceof KbEmbeddingError && !x.message.includes(secret),
  );
});
