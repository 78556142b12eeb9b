export * from './kinds/job-kind.js';
export { jobKinds, kindById, loadJobKinds } from './kinds/registry.js';
export { createClient, EvidentApiError } from './client/client.js';
export type {
  Client,
  ClientOptions,
  Accepted,
  JobStatus,
  JobStatusName,
  JobList,
  TargetList,
  WaitOptions,
  SubmitOptions,
  ResultsLink,
} from './client/client.js';
export { startServer, startWorker } from './service.js';
export type { RunningServer, ServeOptions } from './service.js';
export { configFromEnv } from './config.js';
export type { ServiceConfig } from './config.js';
export { openStore } from './store/open.js';
export { signBody, SIGNATURE_HEADER } from './callbacks/deliver.js';
export { estimateFields, formatEstimate } from './estimate.js';
export { PLANS } from './plans.js';
export { ensureDevKey, DEV_KEY_FILE } from './dev-key.js';
