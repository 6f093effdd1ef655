// The worker thread's entry for bench/pipeline/endpoint.ts: a worker does not inherit tsx's loader
// (neither from the tsx command nor from `--import tsx` in its execArgv, on Node 20), so it
// registers it before loading the TypeScript callers.
import { register } from 'tsx/esm/api';

register();
await import('./endpoint-callers.ts');
