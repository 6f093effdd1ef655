-- Earlier double clicks may have re-run one run twice: the first re-run keeps the link, the later
-- ones keep their name ("Re-run of run N") but no longer count as its re-run.
UPDATE "data_feed_runs" r SET "rerun_of" = NULL
WHERE r."rerun_of" IS NOT NULL
  AND EXISTS (SELECT 1 FROM "data_feed_runs" f WHERE f."rerun_of" = r."rerun_of" AND f."id" < r."id");--> statement-breakpoint
CREATE UNIQUE INDEX "data_feed_runs_rerun_of_uq" ON "data_feed_runs" USING btree ("rerun_of") WHERE "data_feed_runs"."rerun_of" is not null;
