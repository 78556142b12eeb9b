// Job kind 'cg': compound generation (POST /v1/compounds/generate) on @evident/compound-generation.
import {
  generateFromInput,
  resultToCsv,
  validateRequest,
  type GenerationInput,
  type GenerationResult,
} from '@evident/compound-generation';
import type { JobKind } from '../job-kind.js';
import { summarizeGeneration } from './summary.js';
import { estimateCgSeconds } from './cost.js';
import { CgRequest } from './schema.js';
import { renderResultsPage } from './results-page.js';
import { openTarget, type OpenTarget } from './target.js';

export { CgRequest } from './schema.js';
export { estimateCgSeconds } from './cost.js';

export const cgKind: JobKind<CgRequest, GenerationInput, GenerationResult> = {
  id: 'cg',
  route: '/v1/compounds/generate',
  requestSchema: CgRequest,
  async prepare(req) {
    // callback_url is the service's business, not the engine's. The engine's InvalidRequestError
    // (invalid_parameters, problems by JSON pointer) is the job API's answer as it is.
    const { callback_url: _callback, ...body } = req;
    return validateRequest(body);
  },
  estimateSeconds(input) {
    return estimateCgSeconds(input);
  },
  async run(input, ctx) {
    let opened: OpenTarget | null = null;
    try {
      if (input.options.docking) {
        ctx.progress('preparing target', 0);
        opened = await openTarget(input, ctx);
      }
      return await generateFromInput(input, {
        signal: ctx.signal,
        // The engine reports a fraction 0..1; the job API reports percent.
        progress: (stage, fraction) => ctx.progress(stage, Math.round(fraction * 100)),
        ...(opened ? { target: opened.target } : {}),
      });
    } catch (e) {
      // surface the cancellation as the signal's own reason, as other kinds do
      if (ctx.signal.aborted) throw ctx.signal.reason ?? e;
      throw e;
    } finally {
      await opened?.close();
    }
  },
  summarize: summarizeGeneration,
  toCsv(result) {
    return resultToCsv(result);
  },
  toHtml(jobId, result) {
    return renderResultsPage(jobId, result);
  },
};
