// Server-side request forgery through callback_url: every spelling of a private, reserved or own address is
// refused, and delivery connects to the address that was checked, not to what DNS answers a moment later.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { networkInterfaces } from 'node:os';
import { checkCallbackUrl, isPrivateAddress, type Resolver } from '../src/callbacks/address.js';
import { deliverCallback } from '../src/callbacks/deliver.js';
import { http, startTestServer } from './helpers.js';

const servers: Server[] = [];
after(() => {
  for (const s of servers) s.close();
});

/** Every URL here must be refused when private callbacks are not allowed; the comment says what it reaches. */
const hostile = [
  'http://127.0.0.1:9/hook',
  'http://127.1/', // 127.0.0.1, short form
  'http://2130706433/', // 127.0.0.1 as one number
  'http://0x7f.0.0.1/', // hexadecimal
  'http://017700000001/', // octal
  'http://0/', // 0.0.0.0
  'http://10.1.2.3/',
  'http://172.16.0.1/',
  'http://192.168.1.1/',
  'http://100.64.0.1/', // carrier-grade NAT
  'http://169.254.169.254/latest/meta-data/', // cloud metadata
  'http://192.0.0.1/', // IETF protocol assignments
  'http://192.0.2.1/', // documentation
  'http://198.18.0.1/', // benchmarking
  'http://224.0.0.1/', // multicast
  'http://240.0.0.1/', // reserved
  'http://255.255.255.255/', // broadcast
  'http://localhost/x',
  'http://[::]/',
  'http://[::1]/x',
  'https://[::1]:8443/x',
  'http://[fe80::1]/', // link-local
  'http://[fd00::1]/', // unique local
  'http://[fec0::1]/', // site-local (deprecated, still routed by some stacks)
  'http://[ff02::1]/', // multicast
  'http://[::ffff:127.0.0.1]/', // IPv4-mapped, every spelling
  'http://[::ffff:7f00:1]/',
  'http://[0:0:0:0:0:ffff:7f00:1]/',
  'http://[::FFFF:a9fe:a9fe]/',
  'http://[::ffff:10.0.0.1]/',
  'http://[::ffff:0:7f00:1]/', // IPv4-translated (RFC 6145)
  'http://[::7f00:1]/', // IPv4-compatible (deprecated)
  'http://[::127.0.0.1]/',
  'http://[::a9fe:a9fe]/',
  'http://[64:ff9b::a9fe:a9fe]/', // NAT64 to 169.254.169.254
  'http://[64:ff9b::127.0.0.1]/', // NAT64 to loopback
  'http://[64:ff9b::a00:1]/', // NAT64 to 10.0.0.1
  'http://[64:ff9b:1::808:808]/', // local-use NAT64 prefix: a private translator
  'http://[2002:a9fe:a9fe::]/', // 6to4 of 169.254.169.254
  'http://[2002:7f00:1::1]/', // 6to4 of 127.0.0.1
  'http://[2002:c0a8:101::1]/', // 6to4 of 192.168.1.1
  'http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', // Teredo, client 127.0.0.1
  'http://[2001:0:a00:1:8000:63bf:f7f7:f7f7]/', // Teredo, server 10.0.0.1
  'http://[2001:db8::1]/', // documentation
  'http://[100::1]/', // discard
  'http://[5f00::1]/', // segment routing
  'http://[3fff::1]/', // documentation (RFC 9637)
];

/** IP literals that reach public addresses, in forms that must stay allowed. */
const allowed = [
  'https://8.8.8.8/hook',
  'http://1.1.1.1:8080/x',
  'http://172.32.0.1/',
  'https://[2606:4700:4700::1111]/x',
  'http://[::ffff:8.8.8.8]/', // mapped public address
  'http://[64:ff9b::808:808]/', // NAT64 to 8.8.8.8
  'http://[2002:808:808::1]/', // 6to4 of 8.8.8.8
  'http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/', // Teredo, server 65.54.227.120, client 8.8.8.8
];

test('hostile callback URLs are refused, public ones accepted, private ones only when allowed', async () => {
  for (const url of hostile) {
    assert.match((await checkCallbackUrl(url, false)) ?? 'accepted', /refused|does not resolve/, url);
    assert.equal(await checkCallbackUrl(url, true), undefined, `${url} allowed by configuration`);
  }
  for (const url of allowed) assert.equal(await checkCallbackUrl(url, false), undefined, url);
  for (const [url, problem] of [
    ['ftp://example.com/x', /http or https/],
    ['not a url', /absolute/],
    ['http://user:pw@8.8.8.8/', /credentials/],
  ] as const) {
    assert.match((await checkCallbackUrl(url, false)) ?? '', problem, url);
    assert.match((await checkCallbackUrl(url, true)) ?? '', problem, `${url} even when private callbacks are allowed`);
  }
});

test("the host's own interface addresses are refused, whatever their range", () => {
  for (const list of Object.values(networkInterfaces())) {
    for (const i of list ?? []) assert.ok(isPrivateAddress(i.address), i.address);
  }
  // A public address becomes refused once it is one of the host's, in each IPv6 form that carries it.
  const own = new Set(['8.8.8.8', '2606:4700:4700:0:0:0:0:1111']);
  for (const ip of ['8.8.8.8', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:808:808::1', '2606:4700:4700::1111'])
    assert.ok(isPrivateAddress(ip, own), ip);
  assert.ok(!isPrivateAddress('8.8.4.4', own));
  assert.ok(isPrivateAddress('not an address', new Set()));
});

test('a name is refused when any address it resolves to is refused', async () => {
  const dns =
    (answer: Record<string, string[]>): Resolver =>
    async (host) =>
      (answer[host] ?? []).map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  const resolve = dns({
    'public.test': ['8.8.8.8', '2606:4700:4700::1111'],
    'mixed.test': ['8.8.8.8', '10.0.0.1'],
    'mapped.test': ['8.8.8.8', '::ffff:169.254.169.254'],
    'nat64.test': ['64:ff9b::a9fe:a9fe'],
  });
  assert.equal(await checkCallbackUrl('https://public.test/x', false, resolve), undefined);
  for (const host of ['mixed.test', 'mapped.test', 'nat64.test'])
    assert.match((await checkCallbackUrl(`https://${host}/x`, false, resolve))!, /refused/, host);
  assert.match((await checkCallbackUrl('https://nowhere.test/x', false, resolve))!, /does not resolve/);
  const failing: Resolver = async () => {
    throw new Error('SERVFAIL');
  };
  assert.match((await checkCallbackUrl('https://public.test/x', false, failing))!, /does not resolve/);
});

test('the API refuses every hostile callback_url with invalid_parameters naming /callback_url', async () => {
  const strict = await startTestServer({ allowPrivateCallbacks: false });
  try {
    const k = (await strict.store.createKey({ name: 'ssrf', plan: 'researcher' })).key;
    for (const url of hostile) {
      const r = await http(strict.url, 'POST', '/v1/demo/run', { key: k, body: { items: 1, callback_url: url } });
      assert.equal(r.status, 400, url);
      assert.equal(r.body.error.code, 'invalid_parameters', url);
      assert.equal(r.body.error.details[0].path, '/callback_url', url);
    }
    const list = await http(strict.url, 'GET', '/v1/jobs?limit=100', { key: k });
    assert.equal(list.body.jobs.length, 0, 'no job was created for a refused callback');
  } finally {
    await strict.cleanup();
  }
});

interface Seen {
  url: string | undefined;
  headers: IncomingHttpHeaders;
}

async function receiver(host: string, port = 0): Promise<{ server: Server; port: number; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = createServer((req, res) => {
    seen.push({ url: req.url, headers: req.headers });
    req.resume();
    req.on('end', () => res.writeHead(204).end());
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(port, host, r));
  return { server, port: (server.address() as { port: number }).port, seen };
}

function recordingLog() {
  const lines: Array<{ level: string; msg: string; obj: Record<string, unknown> }> = [];
  return {
    lines,
    info: (obj: object, msg: string) => lines.push({ level: 'info', msg, obj: obj as Record<string, unknown> }),
    warn: (obj: object, msg: string) => lines.push({ level: 'warn', msg, obj: obj as Record<string, unknown> }),
  };
}

test('DNS rebinding: a name that is public at the check and loopback afterwards never reaches loopback', async () => {
  const local = await receiver('127.0.0.1');
  const asked: string[] = [];
  // The attacker's DNS server: a public address for the first question, loopback for every later one.
  const rebinding: Resolver = async (host) => {
    asked.push(host);
    return [asked.length === 1 ? { address: '8.8.8.8', family: 4 } : { address: '127.0.0.1', family: 4 }];
  };
  const log = recordingLog();
  const delivered = await deliverCallback(
    `http://rebind.test:${local.port}/hook`,
    'whsec_x',
    { job_id: 'td_x', status: 'completed' },
    { allowPrivate: false, attempts: 2, baseDelayMs: 10, timeoutMs: 300, log, resolve: rebinding },
  );
  assert.equal(delivered, false);
  assert.deepEqual(local.seen, [], 'the loopback receiver saw no request');
  // Once per attempt, by the check; the connection itself asked no one (it went to 8.8.8.8 and timed out).
  assert.deepEqual(asked, ['rebind.test', 'rebind.test']);
  assert.equal(log.lines[0]?.msg, 'callback failed');
  // Offline the connection fails at once naming 8.8.8.8; online it hangs until the timeout.
  assert.match(String(log.lines[0]?.obj.err), /8\.8\.8\.8|timeout|aborted/);
  assert.match(log.lines[1]?.msg ?? '', /callback refused: resolves to a private/, 'the second answer is checked too');
});

test('delivery connects to the address that was resolved, keeping the URL name in the Host header', async () => {
  // Two receivers on one port: 127.0.0.2 is what the name resolves to once; 127.0.0.1 is what a second
  // resolution would give. Loopback is allowed here by configuration, so this isolates the connection.
  const checked = await receiver('127.0.0.2');
  const other = await receiver('127.0.0.1', checked.port);
  let answers = 0;
  const rebinding: Resolver = async () => [{ address: answers++ === 0 ? '127.0.0.2' : '127.0.0.1', family: 4 }];
  const log = recordingLog();
  const ok = await deliverCallback(
    `http://hooks.example:${checked.port}/hook?x=1`,
    'whsec_x',
    { job_id: 'td_y', status: 'completed' },
    { allowPrivate: true, attempts: 1, baseDelayMs: 10, timeoutMs: 5000, log, resolve: rebinding },
  );
  assert.equal(ok, true, JSON.stringify(log.lines));
  assert.equal(answers, 1, 'resolved once');
  assert.deepEqual(other.seen, []);
  assert.equal(checked.seen.length, 1);
  assert.equal(checked.seen[0]!.url, '/hook?x=1');
  assert.equal(checked.seen[0]!.headers.host, `hooks.example:${checked.port}`);
  assert.match(String(checked.seen[0]!.headers['x-evident-signature']), /^t=\d+,v1=[0-9a-f]{64}$/);
  assert.equal(log.lines[0]?.obj.address, '127.0.0.2');
});
