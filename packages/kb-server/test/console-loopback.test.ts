// The console's no-token rule judges addresses, not names (issue 37, point 13): `--host 127.evil.test`, a name
// that resolved to 0.0.0.0, passed a string check and listened on every interface without a token. A name stands
// for its addresses here through an injected lookup (no DNS server, no /etc/hosts edit); literals and localhost
// go through the system's resolver.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { connect, createServer } from 'node:net';
import { open, type KbDB } from '@evident/kb';
import { startConsole } from '../src/console/server.js';
import { isLoopbackAddress } from '../src/console/http-guards.js';
import { StartupError } from '../src/surface/open-base.js';
import { tempKb } from './helpers.js';

const kb = tempKb('loopback.kb');
let db: KbDB;
before(async () => {
  db = await open(kb.path);
});
after(async () => {
  await db?.close();
  kb.cleanup();
});

/** A lookup that answers `addresses` for any name, and records the names it was asked. */
const fakeLookup = (...addresses: string[]) => {
  const asked: string[] = [];
  const lookup = async (host: string) => {
    asked.push(host);
    return addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  return { lookup, asked };
};

const refusedWithoutToken = (pattern: RegExp) => (e: unknown) => {
  assert.ok(e instanceof StartupError, String(e));
  assert.match(e.message, /KB_CONSOLE_TOKEN/);
  assert.match(e.message, pattern);
  return true;
};

/** A port free right now (listened on and released). */
const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** Whether something accepts connections on 127.0.0.1:port. */
const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = connect(port, '127.0.0.1');
    s.on('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.on('error', () => resolve(false));
  });

test('loopback addresses are 127.0.0.0/8 and ::1 (and their IPv4-mapped forms); names are not addresses', () => {
  for (const a of ['127.0.0.1', '127.255.255.254', '127.1.2.3', '::1', '0:0:0:0:0:0:0:1', '::ffff:127.0.0.1'])
    assert.equal(isLoopbackAddress(a), true, a);
  for (const a of ['0.0.0.0', '::', '10.0.0.1', '128.0.0.1', '::ffff:0.0.0.0', '127.evil.test', 'localhost', ''])
    assert.equal(isLoopbackAddress(a), false, a);
});

test('a name starting with 127. that resolves to 0.0.0.0 is refused without a token', async () => {
  const { lookup, asked } = fakeLookup('0.0.0.0');
  await assert.rejects(
    startConsole(db, { port: 0, host: '127.evil.test', lookup }),
    refusedWithoutToken(/127\.evil\.test \(resolves to 0\.0\.0\.0\)/),
  );
  assert.deepEqual(asked, ['127.evil.test']);
});

test('every address of the name must be loopback: one public address among loopback ones is refused', async () => {
  const { lookup } = fakeLookup('127.0.0.1', '::1', '192.0.2.7');
  await assert.rejects(
    startConsole(db, { port: 0, host: 'kb.example.test', lookup }),
    refusedWithoutToken(/resolves to 192\.0\.2\.7/),
  );
});

test('a name that does not resolve is a StartupError naming it', async () => {
  const lookup = async () => {
    throw Object.assign(new Error('getaddrinfo ENOTFOUND nowhere.test'), { code: 'ENOTFOUND' });
  };
  await assert.rejects(startConsole(db, { port: 0, host: 'nowhere.test', lookup }), (e: unknown) => {
    assert.ok(e instanceof StartupError);
    assert.match(e.message, /cannot resolve the host nowhere\.test: getaddrinfo ENOTFOUND/);
    return true;
  });
});

test('the bound address is judged too: a lookup that said loopback does not let 0.0.0.0 stay bound', async () => {
  // The lookup lies (as a DNS answer that changes between the check and listen would); listen binds 0.0.0.0.
  const { lookup } = fakeLookup('127.0.0.1');
  const port = await freePort();
  await assert.rejects(startConsole(db, { port, host: '0.0.0.0', lookup }), refusedWithoutToken(/bound 0\.0\.0\.0/));
  assert.equal(await accepts(port), false, 'the refused console is not left listening');
});

test('0.0.0.0 itself (the system resolver) needs a token; with one it starts', async () => {
  await assert.rejects(startConsole(db, { port: 0, host: '0.0.0.0' }), refusedWithoutToken(/on 0\.0\.0\.0 without/));
  const c = await startConsole(db, { port: 0, host: '0.0.0.0', token: 't0ken' });
  try {
    assert.match(c.url, /^http:\/\/0\.0\.0\.0:\d+$/);
  } finally {
    await c.close();
  }
});

test('loopback hosts start without a token: localhost, 127.0.0.2, ::1 and ::ffff:127.0.0.1', async () => {
  for (const host of ['localhost', '127.0.0.2', '::1', '::ffff:127.0.0.1']) {
    const c = await startConsole(db, { port: 0, host });
    try {
      const addresses = c.app.addresses().map((a) => (typeof a === 'string' ? a : a.address));
      assert.ok(addresses.length > 0 && addresses.every(isLoopbackAddress), `${host}: ${addresses.join(', ')}`);
      // (fetch writes the mapped form as [::ffff:7f00:1] in Host, a name the Host check does not know)
      if (host.startsWith('::ffff:')) continue;
      const r = await fetch(`${c.url}/api/v1/health`);
      assert.equal(r.status, 200, host);
    } finally {
      await c.close();
    }
  }
});
