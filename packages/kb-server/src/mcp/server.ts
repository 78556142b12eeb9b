// MCP server over a KbDB, on the SDK's low-level Server so tools can use the same JSON Schemas as the
// REST routes. Every failure inside a tool becomes a tool result with isError (the server keeps serving).
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { KbClosedError, type KbDB } from '@evident/kb';
import { invalidParameters, toolErrorBody, toWireError } from '../surface/errors.js';
import type { ErrorBody } from '@evident/contract';
import { TOOLS, type ToolDef } from './tools.js';

export const SERVER_NAME = 'evident-kb';
export const SERVER_VERSION = '0.1.0';
/** kb://entities lists at most this many entities (most claims first); search_entities pages beyond. */
export const ENTITY_RESOURCE_LIMIT = 10_000;

/** TypeBox schemas carry symbol keys; the wire gets plain JSON Schema. */
const plain = <T>(schema: T): T => JSON.parse(JSON.stringify(schema)) as T;

export interface McpServerOptions {
  /** Where internal failures are logged (never stdout: that is the protocol channel). */
  log?: (message: string) => void;
}

export function createMcpServer(db: KbDB, options: McpServerOptions = {}): Server {
  const log = options.log ?? ((m: string) => process.stderr.write(`${m}\n`));
  const ajv = new Ajv({ strict: false, allErrors: false, useDefaults: true });
  (addFormats as unknown as (a: Ajv) => void)(ajv);
  const tools = new Map<string, { def: ToolDef; validate: ValidateFunction }>();
  for (const def of TOOLS) tools.set(def.name, { def, validate: ajv.compile(plain(def.input)) });

  const server = new Server(
    { name: SERVER_NAME, version: SERVER_VERSION },
    {
      capabilities: { tools: {}, resources: {} },
      instructions:
        'Evident KB: a claim-native knowledge base. Every fact is a claim with a source; entities and relationships are derived from claims. ' +
        'Start with search_entities to find ids, query_entity for context, get_claims for provenance; read kb://schema for entity types and predicates. ' +
        'search_claims finds claims by meaning, cypher_query matches graph patterns, and the reasoning tools (consensus, test_hypothesis, impact, drift, ...) weigh the evidence.',
    },
  );

  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: TOOLS.map((t) => ({
      name: t.name,
      title: t.annotations.title,
      description: t.description,
      inputSchema: plain(t.input) as { type: 'object'; [k: string]: unknown },
      outputSchema: plain(t.output) as { type: 'object'; [k: string]: unknown },
      annotations: t.annotations,
    })),
  }));

  // Writes reach the base one at a time, as the library runs them anyway. One waiting its turn is not started
  // once its call is cancelled or the connection closes (the SDK aborts the call's signal then): a close would
  // otherwise wait for every write handed to the base, and with the base's file locked by another process each
  // of them waits the lock's timeout and rebuilds the index before failing (kb-mcp once took 75 s to stop so).
  let writes: Promise<unknown> = Promise.resolve();
  const run = (def: ToolDef, args: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> => {
    if (def.annotations.readOnlyHint) return def.run(db, args);
    const turn = writes.then(() => {
      if (signal.aborted) throw new KbClosedError();
      return def.run(db, args);
    });
    writes = turn.catch(() => undefined);
    return turn;
  };

  server.setRequestHandler(CallToolRequestSchema, async (req, extra): Promise<CallToolResult> => {
    const tool = tools.get(req.params.name);
    if (!tool)
      throw new McpError(
        ErrorCode.InvalidParams,
        `unknown tool '${req.params.name}'; call tools/list for the ${TOOLS.length} tools`,
      );
    // Validate a copy: Ajv fills defaults in place.
    const args = structuredClone(req.params.arguments ?? {}) as Record<string, unknown>;
    if (!tool.validate(args)) return toolError(toWireError(invalidParameters(tool.validate.errors!)).body);
    try {
      const data = await run(tool.def, args, extra.signal);
      return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data };
    } catch (e) {
      const { body, internal } = toolErrorBody(e);
      if (internal)
        log(`kb-mcp: tool ${tool.def.name} failed: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      return toolError(body);
    }
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({
    resources: [
      {
        uri: 'kb://entities',
        name: 'entities',
        title: 'Entities',
        description: `Entity list as JSON (id, name, type, claim_count), most claims first, at most ${ENTITY_RESOURCE_LIMIT}`,
        mimeType: 'application/json',
      },
      {
        uri: 'kb://schema',
        name: 'schema',
        title: 'Schema',
        description:
          'Entity types, predicates and relationship patterns with counts, and the registered vocabularies and predicate constraints',
        mimeType: 'application/json',
      },
    ],
  }));

  server.setRequestHandler(ReadResourceRequestSchema, async (req) => {
    const uri = req.params.uri;
    let body: unknown;
    if (uri === 'kb://entities') {
      const all = await db.listEntities({});
      all.sort((a, b) => b.claim_count - a.claim_count || (a.id < b.id ? -1 : 1));
      body = {
        total: all.length,
        truncated: all.length > ENTITY_RESOURCE_LIMIT,
        entities: all.slice(0, ENTITY_RESOURCE_LIMIT),
      };
    } else if (uri === 'kb://schema') {
      body = await db.schema();
    } else {
      throw new McpError(ErrorCode.InvalidParams, `unknown resource '${uri}'; available: kb://entities, kb://schema`);
    }
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(body) }] };
  });

  return server;
}

function toolError(body: ErrorBody): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(body) }], isError: true };
}
