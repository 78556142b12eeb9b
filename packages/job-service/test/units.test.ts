// Small pure pieces: estimate text, address classification, identifiers, signatures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { formatEstimate } from '../src/estimate.js';
import { isPrivateAddress, checkCallbackUrl } from '../src/callbacks/address.js';
import { newJobId, newApiKey, hashApiKey } from '../src/ids.js';
import { signBody } from '../src/callbacks/deliver.js';

test('estimated_time uses the unit that fits, in the seed form', () => {
  assert.equal(formatEstimate([2 * 3600, 4 * 3600]), '2-4 hours');
  assert.equal(formatEstimate([1.5 * 3600, 3.2 * 3600]), '1-4 hours');
  assert.equal(formatEstimate([300, 900]), '5-15 minutes');
  assert.equal(formatEstimate([10, 30]), '10-30 seconds');
  // Always the seed's '<low>-<high> <unit>': two different whole numbers, the low end at least 1.
  assert.equal(formatEstimate([0.2, 0.9]), '1-2 seconds');
  assert.equal(formatEstimate([0, 3]), '1-3 seconds');
  // A low end under a minute stays in seconds (the text never says more than estimated_seconds).
  assert.equal(formatEstimate([20, 300]), '20-300 seconds');
  assert.equal(formatEstimate([60, 60]), '60-61 seconds');
  assert.equal(formatEstimate([30, 10]), '10-30 seconds', 'a reversed range is put in order');
});

test('private, loopback, link-local and mapped addresses are recognised', async () => {
  for (const ip of [
    '127.0.0.1',
    '10.0.0.1',
    '172.16.5.4',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '::1',
    'fe80::1',
    'fd00::1',
    '::ffff:127.0.0.1',
    '::',
  ]) {
    assert.ok(isPrivateAddress(ip), ip);
  }
  for (const ip of ['8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '172.32.0.1']) assert.ok(!isPrivateAddress(ip), ip);
  assert.equal(await checkCallbackUrl('https://8.8.8.8/hook', false), undefined);
  assert.match((await checkCallbackUrl('http://user:pw@8.8.8.8/', false))!, /credentials/);
  assert.equal(await checkCallbackUrl('http://127.0.0.1:9/', true), undefined, 'allowed by configuration');
});

test('job ids carry 128 random bits; keys are stored as SHA-256', () => {
  const ids = new Set(Array.from({ length: 1000 }, () => newJobId('td')));
  assert.equal(ids.size, 1000);
  for (const id of ids) assert.match(id, /^td_[a-z2-7]{26}$/); // 26 base32 chars = 130 bits of encoding for 128 bits
  const k = newApiKey();
  assert.match(k, /^evk_[A-Za-z0-9_-]{43}$/);
  assert.equal(hashApiKey(k).length, 64);
  assert.notEqual(hashApiKey(k), hashApiKey(newApiKey()));
  // Stored hashes are SHA-256 hex of the key's UTF-8: whichever call computes it, the keys made before still match.
  assert.equal(hashApiKey(k), createHash('sha256').update(k, 'utf8').digest('hex'));
});

test('callback signature: t=<unix>,v1=HMAC-SHA256(secret, "<t>.<body>")', () => {
  const sig = signBody('whsec_x', '{"a":1}', 1700000000);
  assert.equal(sig, `t=1700000000,v1=${createHmac('sha256', 'whsec_x').update('1700000000.{"a":1}').digest('hex')}`);
});
