import { fuzzSuite } from './fuzz/suite.ts';

// Shard 1 of the fuzz suite on PGlite (test/fuzz/suite.ts); its other shards run as files of their own.
fuzzSuite('pglite', 0);
