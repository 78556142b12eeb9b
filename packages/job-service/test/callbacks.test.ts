// Completion callbacks: signed with the key's signing secret, retried with backoff on failure.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { http, startTestServer, waitFor, type TestServer } from './helpers.js';

let s: TestServer | undefined;
let receiver: Server | undefined;
after(async () => {
  await s?.cleanup();
  receiver?.close();
});

function verify(secret: string, header: string, body: string): boolean {
  const m = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header);
  if (!m) return false;
  const expected = createHmac('sha256', secret).update(`${m[1]}.${body}`).digest();
  return timingSafeEqual(expected, Buffer.from(m[2]!, 'hex'));
}

test('a completed and a failed job each POST their signed status document, retried until accepted', async () => {
  const got: Array<{ body: string; signature: string; answered: number }> = [];
  let calls = 0;
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      calls++;
      // The first delivery fails: the service must retry.
      const answered = calls === 1 ? 503 : 204;
      got.push({ body, signature: String(req.headers['x-evident-signature']), answered });
      res.writeHead(answered).end();
    });
  });
  await new Promise<void>((r) => receiver!.listen(0, '127.0.0.1', r));
  const port = (receiver.address() as { port: number }).port;

  // Loopback callbacks are allowed here by configuration (the default refuses them).
  s = await startTestServer({ allowPrivateCallbacks: true, callbackBaseDelayMs: 100 });
  const k = await s.store.createKey({ name: 'cb', plan: 'researcher' });
  const ok = await http(s.url, 'POST', '/v1/demo/run', {
    key: k.key,
    body: { items: 3, callback_url: `http://127.0.0.1:${port}/hook?x=1` },
  });
  assert.equal(ok.status, 202);
  await waitFor(async () => got.some((g) => g.answered === 204));
  const bad = await http(s.url, 'POST', '/v1/demo/run', {
    key: k.key,
    body: { items: 3, fail: 'input', callback_url: `http://127.0.0.1:${port}/hook` },
  });
  await waitFor(async () => got.filter((g) => g.answered === 204).length === 2);

  assert.equal(got.length, 3);
  for (const g of got)
    assert.ok(verify(k.signing_secret, g.signature, g.body), 'signature verifies with the signing secret');
  assert.ok(!verify('whsec_wrong', got[0]!.signature, got[0]!.body));
  const docs = got.map((g) => JSON.parse(g.body));
  assert.equal(docs[0].job_id, ok.body.job_id);
  assert.equal(docs[0].status, 'completed');
  assert.deepEqual(docs[0], docs[1], 'the retry carries the same document');
  assert.equal(docs[2].job_id, bad.body.job_id);
  assert.equal(docs[2].status, 'failed');
  assert.equal(docs[2].error.code, 'invalid_input');
});
