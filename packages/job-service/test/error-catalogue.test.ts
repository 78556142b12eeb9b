// The job API's one table of error codes (JOB_API_ERRORS) against its sources and its README table (issue 39,
// point 2). The codes and statuses are the seed's contract: this test fails when the table and the README differ.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { readmeErrorTable, tableDisagreements, uncataloguedCodes } from '@evident/contract/check';
import { ApiError, JOB_API_ERRORS, JOB_FAILURE_CODES } from '../src/errors.js';

const src = fileURLToPath(new URL('../src', import.meta.url));
const readme = readFileSync(fileURLToPath(new URL('../README.md', import.meta.url)), 'utf8');

test('every code thrown in src is in JOB_API_ERRORS', () => {
  const missing = uncataloguedCodes(src, JOB_API_ERRORS, {
    callees: ['ApiError', 'EvidentError', 'TaskTimeoutError', 'refused', 'httpError'],
  });
  assert.deepEqual(missing, []);
});

test("the README's table and JOB_API_ERRORS agree: HTTP rows by status, the job rows are the failure codes", () => {
  const rows = readmeErrorTable(readme, 'Errors');
  const http = rows.filter((r) => !r.statuses.includes('job'));
  const job = rows.filter((r) => r.statuses.includes('job'));
  const notHttp = Object.fromEntries(
    Object.entries(JOB_API_ERRORS)
      .filter(([, e]) => e.status === null)
      .map(([c]) => [c, 'a failed job carries it (the job rows)']),
  );
  const internal = {
    ...notHttp,
    aborted: 'the caller went away: nobody reads the answer',
    run_timeout: "a job's run past its deadline fails the job as job_failed quoting it",
    docking_unavailable: 'a failed job carries it (the job rows)',
    host_not_allowed: "the KB console's Host check; the job API has none",
    wait_timeout: "the client's, documented with waitForJob",
    invalid_usage: "the CLI's, printed before any request",
  };
  assert.deepEqual(tableDisagreements(http, JOB_API_ERRORS, { undocumented: internal }), []);
  const jobCodes = new Set(job.flatMap((r) => r.codes));
  assert.deepEqual(
    JOB_FAILURE_CODES.filter((c) => !jobCodes.has(c)),
    [],
  );
  assert.deepEqual(
    [...jobCodes].filter((c) => !(JOB_FAILURE_CODES as readonly string[]).includes(c)),
    [],
  );
});

test('an ApiError takes its status from the table', () => {
  assert.equal(new ApiError('job_finished', 'x').status, 409);
  assert.equal(new ApiError('rate_limited', 'x', { retryAfter: 3 }).status, 429);
  assert.equal(new ApiError('job_failed', 'x').status, undefined);
});
