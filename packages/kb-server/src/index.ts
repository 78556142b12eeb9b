// @evident/kb-server: the Evident KB's surfaces over '@evident/kb'. See README.md.
export {
  buildConsole,
  startConsole,
  API_PREFIX,
  type ConsoleOptions,
  type StartConsoleOptions,
  type RunningConsole,
} from './console/server.js';
export { DEFAULT_HTTP_LIMITS, httpLimitsFromEnv, type HttpLimits } from './console/http-guards.js';
export { createMcpServer, type McpServerOptions } from './mcp/server.js';
export { openBase, redact, StartupError, strictFrom } from './surface/open-base.js';
export { toWireError, invalidParameters, schemaProblem } from './surface/errors.js';
export { createLogger, logLevelFrom, type Logger } from './surface/logger.js';
