// Worker-thread entry: prepares inputs and runs jobs of the registered kinds off the HTTP event loop.
// Inputs and results cross as gzip'd JSON so the main thread never parses or serialises big documents.
import { parentPort, workerData } from 'node:worker_threads';
import { gzipSync, gunzipSync } from 'node:zlib';
import { kindById, loadJobKinds } from '../kinds/registry.js';
import { EvidentError, INVALID_PARAMETERS, InvalidParametersError, serializeError } from '@evident/contract';
import type { JobKind, PrepareContext } from '../kinds/job-kind.js';
import { invalidJson } from '../errors.js';
import type { FromThread, ThreadData, ToThread } from './protocol.js';
import { ENGINE_FAULT, hasWasmTrap } from './thread-errors.js';
import { parseJsonSafely } from '../wire/raw-body.js';
import { problemsOf } from '../wire/validation.js';
import { submitBodySchema } from '../wire/schemas.js';
import { INPUT_FILE_MIN_BYTES, readInput, writeInputFile } from '../store/input-files.js';
import { lowerThreadPriority } from '@evident/worker-threads';

const port = parentPort!;
// Before the kinds load (RDKit's WebAssembly compile is seconds of CPU): that already yields to the event loop.
lowerThreadPriority((workerData as ThreadData | undefined)?.nice ?? 0);
const kindsLoaded = loadJobKinds((workerData as ThreadData | undefined)?.kindModules ?? []);
const aborts = new Map<number, AbortController>();
void kindsLoaded.then(
  () => send({ type: 'ready', taskId: 0 }),
  // A kind module that fails to load: tasks still arrive and answer its error.
  () => send({ type: 'ready', taskId: 0 }),
);

/**
 * The job API's contract for a request the kind refuses (bad CSV, impossible ranges, …): `invalid_parameters`,
 * the refusal's problems in `details`, whatever the engine's own code; a fault of ours stays what it is.
 */
async function prepareOrRefuse(kind: JobKind, request: unknown, limits: PrepareContext['limits']): Promise<unknown> {
  try {
    return await kind.prepare(request, { settings: (workerData as ThreadData | undefined)?.settings ?? {}, limits });
  } catch (e) {
    if (!(e instanceof EvidentError) || e.status === undefined || e.status >= 500 || e.code === INVALID_PARAMETERS) {
      throw e;
    }
    throw new InvalidParametersError(e.problems ?? [{ path: '', message: e.message }]);
  }
}

/** A result's oracle call log, or 400 naming the format when the kind or this result has none. */
function callLogOf(kind: JobKind, result: unknown): string {
  const log = kind.toCallLog?.(result) ?? null;
  if (log === null) {
    throw new InvalidParametersError([
      {
        path: '/format',
        message: `this job has no oracle call log (jobs of kind ${kind.id} with a scoring profile have one)`,
      },
    ]);
  }
  return log;
}

function enrichmentCsvOf(kind: JobKind, result: unknown): string {
  const csv = kind.toEnrichmentCsv?.(result) ?? null;
  if (csv === null) {
    throw new InvalidParametersError([
      {
        path: '/format',
        message: `this job has no gene-set enrichment (discovery jobs run with options.enrichment have one)`,
      },
    ]);
  }
  return csv;
}

function send(m: FromThread, transfer: ArrayBuffer[] = []): void {
  port.postMessage(m, transfer);
}

// gzip level 1: a third of the default level's time on a 40 MB input for 7 % more bytes; inputs and results are
// stored once and read back a few times, so the thread's time matters more.
const pack = (text: string) => gzipSync(text, { level: 1 });

/** The buffer's memory, moved rather than copied to the main thread when the buffer owns all of it. */
const owned = (b: Buffer): ArrayBuffer[] =>
  b.byteOffset === 0 && b.byteLength === b.buffer.byteLength ? [b.buffer as ArrayBuffer] : [];

/** A prepared input as the answer carries it: a large one written to a file in `inputDir` (store/input-files.ts). */
function preparedInput(input: unknown, inputDir: string | undefined): { input: Buffer; inputFile?: string } {
  const gz = pack(JSON.stringify(input));
  if (inputDir === undefined || gz.length < INPUT_FILE_MIN_BYTES) return { input: gz };
  return { input: Buffer.alloc(0), inputFile: writeInputFile(inputDir, gz) };
}

port.on('message', async (m: ToThread) => {
  if (m.type === 'abort') {
    aborts.get(m.taskId)?.abort(new Error('aborted'));
    return;
  }
  try {
    await kindsLoaded;
    const kind = kindById(m.kind);
    if (!kind) throw new Error(`unknown job kind ${m.kind}`);
    if (m.type === 'prepare-raw') {
      // A large body: parse, validate against the route's schema, and prepare, all off the event loop.
      let body: unknown;
      try {
        body = parseJsonSafely(Buffer.from(m.raw.buffer, m.raw.byteOffset, m.raw.byteLength));
      } catch (e) {
        // A forbidden key or too deep a nesting is invalid_parameters naming it; anything else is unparseable.
        throw e instanceof InvalidParametersError ? e : invalidJson();
      }
      const problems = problemsOf(submitBodySchema(kind.requestSchema), body);
      if (problems.length) throw new InvalidParametersError(problems);
      const { callback_url, ...request } = body as Record<string, unknown> & { callback_url?: string };
      const input = await prepareOrRefuse(kind, request, m.limits);
      const estimate = kind.estimateSeconds(input);
      const out = preparedInput(input, m.inputDir);
      send({ type: 'prepared', taskId: m.taskId, ...out, estimate, callback_url }, owned(out.input));
      return;
    }
    if (m.type === 'prepare') {
      const input = await prepareOrRefuse(kind, m.request, m.limits);
      const estimate = kind.estimateSeconds(input);
      const out = preparedInput(input, m.inputDir);
      send({ type: 'prepared', taskId: m.taskId, ...out, estimate }, owned(out.input));
      return;
    }
    if (m.type === 'csv') {
      const result = JSON.parse(gunzipSync(m.result).toString('utf8'));
      const csv =
        m.format === 'calls.csv'
          ? callLogOf(kind, result)
          : m.format === 'enrichment.csv'
            ? enrichmentCsvOf(kind, result)
            : m.format === 'html' && kind.toHtml
              ? kind.toHtml(m.jobId ?? '', result)
              : kind.toCsv(result);
      const gz = pack(csv);
      send({ type: 'csv', taskId: m.taskId, csv: gz }, owned(gz));
      return;
    }
    const controller = new AbortController();
    aborts.set(m.taskId, controller);
    const input = JSON.parse(gunzipSync(readInput(m.input, m.inputPath)).toString('utf8'));
    let last = 0;
    const result = await kind.run(input, {
      settings: (workerData as ThreadData | undefined)?.settings ?? {},
      signal: controller.signal,
      attempt: m.attempt,
      progress(stage, percent) {
        const now = Date.now();
        // Throttled here so that chatty kinds cannot flood the main thread.
        if (now - last < 100 && percent < 100) return;
        last = now;
        send({ type: 'progress', taskId: m.taskId, stage, percent: Math.max(0, Math.min(100, percent)) });
      },
    });
    const targets = kind.targetsOf ? kind.targetsOf(result) : [];
    const gz = pack(JSON.stringify(result));
    send({ type: 'done', taskId: m.taskId, result: gz, targets }, owned(gz));
  } catch (e) {
    // A WebAssembly trap (RDKit: out-of-bounds access, stack exhaustion) leaves the module unusable for every
    // later task: the pool replaces this thread. A trap the kind attributed to a field keeps its 4xx answer;
    // any other is an engine fault of this request (or job) alone.
    const fatal = hasWasmTrap(e);
    const error =
      fatal && !(e instanceof EvidentError && e.status !== undefined && e.status < 500)
        ? new EvidentError(
            ENGINE_FAULT,
            `the engine failed on this input (its WebAssembly module trapped: ${(e as Error).message}); ` +
              'the thread was replaced',
            { status: 500, cause: e },
          )
        : e;
    send({ type: 'error', taskId: m.taskId, error: serializeError(error), ...(fatal ? { fatal } : {}) });
  } finally {
    aborts.delete(m.taskId);
  }
});
