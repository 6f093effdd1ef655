-- A time zone change rebuilds the client's rollup rows (report_counts_rebuild) while a worker may be
-- folding deltas of the same keys: both insert folded rows, and the second hit the folded unique
-- index (apps/server/test/reports-rollups-race.test.ts). Both now hold this transaction lock, taken
-- also by compactReportCounts and rebuildReportCounts (apps/server/src/reports/rollups/compaction.ts).
CREATE OR REPLACE FUNCTION "report_counts_on_client_zone"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(7245039);
  PERFORM report_counts_rebuild(NEW.id, NULL, NULL);
  RETURN NULL;
END $$;
