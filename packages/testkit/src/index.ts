export * from './services.js';
export * from './paths.js';
export * from './raw-http.js';
export * from './fuzz.js';
export * from './readme.js';
export * from './topology-reference.js';
export * from './hostile.js';
export * from './hostile-server.js';
