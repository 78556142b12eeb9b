// @evident/kb: the user's entry point. See README.md.
export * from '@evident/kb-core';
