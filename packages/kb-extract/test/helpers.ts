// Bases opened with an Extraction of their own (as '@evident/kb' opens them), and the calls the tests make on
// them, reached through the base (db.ingestText) or, for configureCurator with a test environment, through the
// base's extraction.
import { join } from 'node:path';
import { tempDir } from '@evident/testkit';
import * as core from '@evident/kb-core';
import type {
  ClaimInput,
  CuratorSpec,
  IngestChatFileOptions,
  IngestChatOptions,
  IngestTeamChatOptions,
  IngestTextOptions,
  KbDB,
} from '@evident/kb-core';
import { Extraction } from '../src/index.js';

export { KbValidationError, type Claim, type ClaimInput, type KbDB } from '@evident/kb-core';

/** A fresh directory for one test; returns a path inside it and the cleanup. */
export function tempKb(name = 'test.kb'): { path: string; dir: string; cleanup(): void } {
  const d = tempDir('evident-kb-');
  return { path: join(d.path, name), dir: d.path, cleanup: d.cleanup };
}

const extractions = new WeakMap<KbDB, Extraction>();

export async function open(path: string, options: core.OpenOptions = {}): Promise<KbDB> {
  const extraction = new Extraction();
  const db = await core.open(path, { ...options, extraction });
  extractions.set(db, extraction);
  return db;
}

export async function quickstart(path: string, options: core.QuickstartOptions = {}): Promise<KbDB> {
  const extraction = new Extraction();
  const db = await core.quickstart(path, { ...options, extraction });
  extractions.set(db, extraction);
  return db;
}

export const ingestText = (db: KbDB, text: string, o?: IngestTextOptions) => db.ingestText(text, o);
export const ingestChat = (db: KbDB, messages: unknown[], o?: IngestChatOptions) => db.ingestChat(messages, o);
export const ingestChatFile = (db: KbDB, path: string, o?: IngestChatFileOptions) => db.ingestChatFile(path, o);
export const ingestTeamChat = (db: KbDB, path: string, o?: IngestTeamChatOptions) => db.ingestTeamChat(path, o);
export const curate = (db: KbDB, claims: ClaimInput[]) => db.curate(claims);

/** The base's extraction sets its reviewer, synchronously, looking keys up in `env`. */
export function configureCurator(db: KbDB, spec: CuratorSpec, env: NodeJS.ProcessEnv = process.env) {
  const extraction = extractions.get(db);
  if (!extraction) throw new Error('open the base through test/helpers.ts');
  return extraction.configureCurator(db, spec, env);
}
