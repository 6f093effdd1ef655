export * from './api/envelopes.ts';
export * from './api/list.ts';
export * from './api/status.ts';
export * from './constants.ts';
export * from './resources/clients.ts';
export * from './resources/identity.ts';
export * from './resources/system-logs.ts';
export * as validation from './validation/index.ts';
