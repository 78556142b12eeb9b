export * from './services.js';
export * from './paths.js';
