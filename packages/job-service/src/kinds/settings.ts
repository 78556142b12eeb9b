// The part of the service's configuration job kinds see (it crosses to worker threads as JSON).
import { join } from 'node:path';
import type { ServiceConfig } from '../config.js';
import type { KindSettings } from './job-kind.js';
import { readExternalScorers } from './cg/external-scorers.js';

export function kindSettingsOf(config: ServiceConfig): KindSettings & Required<Pick<KindSettings, 'structures'>> {
  return {
    structures: {
      cacheDir: join(config.dataDir, 'structures'),
      rcsbSearchUrl: config.rcsbSearchUrl,
      rcsbFilesUrl: config.rcsbFilesUrl,
      alphafoldApiUrl: config.alphafoldApiUrl,
      alphafoldFilesUrl: config.alphafoldFilesUrl,
      maxBytes: config.structureMaxBytes,
      timeoutMs: config.structureTimeoutMs,
      maxCandidates: config.structureCandidates,
    },
    // Read (and checked) when the service starts: a bad file stops it with the file's name and the entry.
    ...(config.externalScorersFile ? { externalScorers: readExternalScorers(config.externalScorersFile) } : {}),
  };
}
