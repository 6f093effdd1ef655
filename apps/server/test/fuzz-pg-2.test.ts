import { fuzzSuite } from './fuzz/suite.ts';

// Shard 2 of the fuzz suite on PostgreSQL (test/fuzz/suite.ts); its other shards run as files of their own.
fuzzSuite('pg', 1);
