// The demo kind with a results page (GET /v1/results/{id}?format=html), for the results-link tests: a kind with a
// page as cheap to run as the demo (the production kind with one, compound generation, docks molecules).
import type { JobKind } from '../src/kinds/job-kind.js';
import { demoKind, type DemoInput, type DemoRequest, type DemoResult } from './demo-kind.js';

export const pageKind: JobKind<DemoRequest, DemoInput, DemoResult> = {
  ...demoKind,
  id: 'paged',
  route: '/v1/paged/run',
  toHtml(jobId, result) {
    return `<!doctype html><title>${jobId}</title><h1>Results of ${jobId}</h1><p>checksum ${result.checksum}</p>`;
  },
};

export default pageKind;
