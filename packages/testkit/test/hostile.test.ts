// The hostile-load harness on a toy server (a child process): what it counts as a 5xx, out of shape and
// unanswered, that a dead server is reported and started again, and that memory is read from /proc. No timing is
// asserted: only that the figures are there.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { type HostileRequest, runHostileBench, shapeProblem, spawnServerProcess } from '../src/index.js';

// Routes: /ok answers 200; /busy holds the event loop 200 ms then refuses in shape; /boom is a 500 in shape and
// logs an error line; /plain a 400 in text; /undefined a 200 whose JSON does not parse; /hang never answers;
// /reset drops the connection; /exit ends the process.
const TOY = `
const http = require('node:http');
const json = (res, status, body) => { res.writeHead(status, { 'content-type': 'application/json' }); res.end(body); };
const err = (code) => JSON.stringify({ error: { code, message: code } });
http.createServer((req, res) => {
  switch (req.url) {
    case '/ok': return json(res, 200, '{"ok":true}');
    case '/busy': { const t = Date.now(); while (Date.now() - t < 200); return json(res, 400, err('busy')); }
    case '/boom': console.log(JSON.stringify({ level: 50, msg: 'boom' })); return json(res, 500, err('internal_error'));
    case '/plain': res.writeHead(400, { 'content-type': 'text/plain' }); return res.end('Bad Request');
    case '/undefined': return json(res, 200, '[[undefined]]');
    case '/hang': return;
    case '/reset': return req.socket.destroy();
    case '/exit': process.exit(3);
    default: return json(res, 404, err('not_found'));
  }
}).listen(0, '127.0.0.1', function () { console.log('toy listening on http://127.0.0.1:' + this.address().port); });
`;

const get = (path: string, over: Partial<HostileRequest> = {}): HostileRequest => ({
  why: path,
  method: 'GET',
  path,
  ...over,
});

test('each answer is classed: a 5xx, out of shape, unanswered; a server that dies is reported and restarted', async () => {
  let starts = 0;
  const report = await runHostileBench({
    start: () => {
      starts++;
      return spawnServerProcess({ name: 'toy', args: ['-e', TOY], ready: /listening on (http:\/\/\S+)/ });
    },
    probe: get('/ok', { mayPass: true }),
    baselineN: 5,
    settleMs: 0,
    timeoutMs: 5000,
    log: () => {},
    cases: [
      { name: 'refused in shape', run: async (c) => ({ exchanges: [await c.send(get('/busy'))] }) },
      {
        name: 'errors',
        run: async (c) => ({
          exchanges: await c.sendAll([
            get('/boom'),
            get('/plain'),
            get('/undefined', { mayPass: true }),
            get('/ok'), // a success where a refusal is due
          ]),
          extra: { note: 'kept' },
        }),
      },
      { name: 'hangs', run: async (c) => ({ exchanges: [await c.send(get('/hang', { timeoutMs: 300 }))] }) },
      {
        name: 'resets',
        run: async (c) => ({ exchanges: await c.sendAll([get('/reset'), get('/reset', { mayReset: true })]) }),
      },
      {
        name: 'settles',
        run: async (c) => {
          const m = await c.settle();
          return { exchanges: [], extra: { read: m !== undefined } };
        },
      },
      { name: 'exits', run: async (c) => ({ exchanges: [await c.send(get('/exit', { mayReset: true }))] }) },
    ],
  });
  const byName = Object.fromEntries(report.cases.map((c) => [c.case, c]));

  assert.equal(report.baseline.n, 5);
  assert.equal(typeof report.baseline_slowest_ms, 'number');
  assert.ok(report.memory_at_baseline !== null && report.memory_at_baseline.rss_mb > 0);

  const refused = byName['refused in shape']!;
  assert.deepEqual(refused.statuses, { 400: 1 });
  assert.deepEqual([refused.five_xx, refused.out_of_shape, refused.unanswered], [0, 0, 0]);
  assert.ok(refused.probes >= 1 && typeof refused.slowest_probe_ms === 'number');

  const errors = byName.errors!;
  assert.deepEqual(errors.statuses, { 200: 2, 400: 1, 500: 1 });
  assert.equal(errors.five_xx, 1);
  assert.equal(errors.out_of_shape, 3, JSON.stringify(errors.problems));
  assert.equal(errors.unanswered, 0);
  assert.equal(errors.server_error_logs, 1);
  assert.equal(errors.note, 'kept');

  const hangs = byName.hangs!;
  assert.deepEqual(hangs.statuses, { timeout: 1 });
  assert.equal(hangs.unanswered, 1);

  const resets = byName.resets!;
  assert.deepEqual(resets.statuses, { '-1': 2 });
  assert.equal(resets.unanswered, 1, 'a reset counts unless the request may be reset');

  assert.equal(byName.settles!.read, true);
  assert.equal((byName.settles!.memory_after_settle as { rss_mb: number }).rss_mb > 0, true);

  const exits = byName.exits!;
  assert.equal(exits.crashed, 'code 3');
  assert.equal(starts, 2, 'started again after it died');
  assert.equal(report.restarts, 1);

  // The restarted server is alive and measured, but the run is not: a crash fails the alive goal.
  assert.equal(report.alive, true);
  assert.ok(report.rss_after_60s_mb !== null && report.rss_after_60s_mb > 0);
  assert.ok(report.memory_after !== null && report.memory_after.threads >= 1);
  assert.deepEqual(report.goals.alive, { value: false, met: false });
  assert.deepEqual(report.goals.no_5xx, { value: 1, met: false });
  assert.equal(report.goals.none_out_of_shape.value, 3);
  assert.equal(report.goals.none_unanswered.met, false);
  assert.equal(report.goals.rss_under_300_mb.met, true, 'a toy node process is far below 300 MB');
  assert.equal(typeof report.goals.slowest_probe_under_1000_ms.value, 'number');
});

test('shape rules: errors need the error shape, successes parseable JSON, refusals a 4xx', () => {
  const x = (status: number, text: string, over: Partial<HostileRequest> = {}, contentType = 'application/json') => ({
    req: get('/x', over),
    answer: { status, text, contentType, ms: 1 },
  });
  const err = '{"error":{"code":"c","message":"m"}}';
  assert.equal(shapeProblem(x(400, err)), undefined);
  assert.equal(shapeProblem(x(503, err)), undefined, 'a 5xx in shape is counted as a 5xx only');
  assert.equal(shapeProblem(x(417, '')), '417 with a body that is not JSON');
  assert.equal(shapeProblem(x(400, '{"message":"m"}')), '400 not in { error: { code, message } }');
  assert.equal(shapeProblem(x(400, 'no', {}, 'text/plain')), '400 with content-type text/plain');
  assert.equal(shapeProblem(x(200, '[[null]]', { mayPass: true })), undefined);
  assert.equal(shapeProblem(x(200, '[[undefined]]', { mayPass: true })), '200 with a JSON body that does not parse');
  assert.equal(shapeProblem(x(200, '{}')), '200 for a request that must be refused');
  assert.equal(shapeProblem(x(405, '', { method: 'HEAD' })), undefined);
  assert.equal(shapeProblem(x(-1, '')), undefined, 'no answer is counted as unanswered, not out of shape');
});
