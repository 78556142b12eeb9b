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
import { CgRequest } from './schema.js';
import { renderResultsPage } from './results-page.js';
import { openTarget, type OpenTarget } from './target.js';
import {
  isScoringRequest,
  isScoringResult,
  prepareScoring,
  runScoring,
  scoringCallLog,
  scoringToCsv,
  type CgScoringInput,
  type CgScoringResult,
} from './scoring-run.js';
import { renderScoringPage, summarizeScoring } from './scoring-summary.js';
import { estimateCgSeconds, estimateScoringSeconds } from './cost.js';

export { CgRequest } from './schema.js';
export { estimateCgSeconds, estimateScoringSeconds } from './cost.js';
export type { CgScoringInput, CgScoringResult, CgScoringMolecule } from './scoring-run.js';

type CgInput = GenerationInput | CgScoringInput;
type CgResult = GenerationResult | CgScoringResult;
const isScoringInput = (input: CgInput): input is CgScoringInput => (input as CgScoringInput).mode === 'scoring';

export const cgKind: JobKind<CgRequest, CgInput, CgResult> = {
  id: 'cg',
  route: '/v1/compounds/generate',
  requestSchema: CgRequest,
  async prepare(req, ctx) {
    // callback_url is the service's business, not the engine's. The engine's InvalidRequestError
    // (invalid_parameters, problems by JSON pointer) is the job API's answer as it is.
    const { callback_url: _callback, ...body } = req;
    if (isScoringRequest(body)) return prepareScoring(body, ctx);
    return validateRequest(body);
  },
  estimateSeconds(input) {
    return isScoringInput(input) ? estimateScoringSeconds(input) : estimateCgSeconds(input);
  },
  async run(input, ctx) {
    if (isScoringInput(input)) {
      try {
        return await runScoring(input, ctx);
      } catch (e) {
        if (ctx.signal.aborted) throw ctx.signal.reason ?? e;
        throw e;
      }
    }
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
  summarize(result, top) {
    return isScoringResult(result) ? summarizeScoring(result, top) : summarizeGeneration(result, top);
  },
  toCsv(result) {
    return isScoringResult(result) ? scoringToCsv(result) : resultToCsv(result);
  },
  toCallLog(result) {
    return isScoringResult(result) ? scoringCallLog(result) : null;
  },
  toHtml(jobId, result) {
    return isScoringResult(result) ? renderScoringPage(jobId, result) : renderResultsPage(jobId, result);
  },
};
