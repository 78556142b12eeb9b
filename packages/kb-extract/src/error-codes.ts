// kb-extract's own error codes in one table: code → HTTP status and meaning (the language-model providers', the
// chat files' and archives', the embedding providers'). Its error classes take their status from it; the codes
// it shares with kb-core (not_found, too_large, empty_text, the validation codes) are KB_ERRORS', and
// test/error-catalogue.test.ts checks that the two agree, that every code thrown in src is in one of them, and
// that the README's table says the same (issue 39, point 2).
import { defineCatalogue, mergeCatalogues } from '@evident/contract';
import { KB_ERRORS } from '@evident/kb-core';

// Deliberate likeness: every package's catalogue has this shape (code → status and meaning, by defineCatalogue),
// which the duplicates tool pairs across packages; the rows are this package's own.
export const KB_EXTRACT_ERRORS = defineCatalogue({
  // Language-model providers (KbProviderError): a configuration mistake is the caller's (400).
  no_provider: { status: 400, meaning: 'an LLM extraction mode (or a review) with no provider configured or given' },
  unknown_provider: { status: 400, meaning: 'a provider name that is not one of the supported ones' },
  invalid_model: { status: 400, meaning: "an empty model name after 'provider:'" },
  missing_api_key: { status: 400, meaning: "no API key given and none in the provider's environment variables" },
  invalid_option: { status: 400, meaning: 'a timeout, retry, token or character option that is not a positive number' },
  token_budget: { status: 400, meaning: "a prompt over max_input_chars, or the call's token budget spent" },
  // A failed provider call: the provider's own 429 or 5xx is passed on as it answered.
  provider_rate_limited: { status: 429, meaning: 'the provider still answered 429 after every retry' },
  provider_auth: { status: 502, meaning: 'the provider refused the key (401, 403)' },
  provider_error: { status: 502, meaning: "any other failed call (the provider's 5xx is passed on as it is)" },
  invalid_output: { status: 502, meaning: "the model's output did not match the schema after every retry" },
  provider_timeout: { status: 504, meaning: 'every attempt timed out' },
  empty: { status: 400, meaning: 'ingestChat with an empty list of messages' },
  // Chat files and archives (KbChatFileError, KbArchiveError): the file the caller named is at fault (400).
  malformed_json: { status: 400, meaning: 'a chat file that is not valid JSON' },
  invalid_format: { status: 400, meaning: "a chat file whose content is not the platform's export format" },
  unknown_platform: { status: 400, meaning: 'a platform that is not auto, chatgpt, claude, json, text (or slack)' },
  unknown_channel: { status: 400, meaning: 'a Slack channel the export does not hold' },
  not_zip: { status: 400, meaning: 'a file given as an archive that is not a ZIP' },
  corrupt_archive: { status: 400, meaning: 'a ZIP that cannot be read' },
  path_traversal: { status: 400, meaning: 'an archive entry whose name leads outside the archive' },
  too_many_entries: { status: 400, meaning: 'an archive with more entries than max_entries' },
  missing_entry: { status: 400, meaning: 'an archive without the entry the platform needs (conversations.json)' },
  encrypted_entry: { status: 400, meaning: 'an encrypted archive entry' },
  // Embedding providers (KbEmbeddingError): the provider's own 429 or 5xx is passed on as it answered.
  embedding_config: {
    status: 400,
    meaning: 'an unknown provider, a missing key, a bad option or base URL (at construction, so at open)',
  },
  embedding_invalid_input: { status: 400, meaning: 'texts that are not non-empty strings, or more than 100,000' },
  embedding_dimension_mismatch: { status: 502, meaning: 'a vector of another length than dim' },
  embedding_invalid_output: { status: 502, meaning: 'another number of vectors than texts, or a non-finite entry' },
  embedding_rate_limited: { status: 429, meaning: 'the provider still answered 429 after every retry' },
  embedding_auth: { status: 502, meaning: 'the provider refused the key (401, 403)' },
  embedding_provider_error: { status: 502, meaning: "any other failed call (the provider's 5xx is passed on)" },
  embedding_timeout: { status: 504, meaning: 'every attempt timed out' },
  embedding_aborted: { status: null, meaning: "the caller's signal aborted the call" },
});

export type KbExtractCode = keyof typeof KB_EXTRACT_ERRORS;

// kb-core's codes and ours, as one (a code in both must have one status: mergeCatalogues checks it).
const ALL = mergeCatalogues(KB_ERRORS, KB_EXTRACT_ERRORS);

/**
 * The status of `code` (ours or kb-core's; undefined for null), or the provider's own `answered` status when it
 * answered 429 or 5xx: passed on as it is.
 */
export function extractStatus(code: string, answered?: number): number | undefined {
  if (answered !== undefined && (answered === 429 || answered >= 500)) return answered;
  const entry = ALL[code];
  if (!entry) throw new TypeError(`error code '${code}' is not in KB_EXTRACT_ERRORS or KB_ERRORS`);
  return entry.status ?? undefined;
}
