CREATE TABLE "data_feed_run_batches" (
	"run_id" integer NOT NULL,
	"seq" integer NOT NULL,
	"records" jsonb NOT NULL,
	CONSTRAINT "data_feed_run_batches_run_id_seq_pk" PRIMARY KEY("run_id","seq")
);
--> statement-breakpoint
ALTER TABLE "data_feed_runs" ADD COLUMN "received_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_feed_runs" ADD COLUMN "rows_done" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "data_feed_runs" ADD COLUMN "locked_by" text;--> statement-breakpoint
ALTER TABLE "data_feed_runs" ADD COLUMN "locked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_feeds" ADD COLUMN "last_error" text;--> statement-breakpoint
ALTER TABLE "data_feeds" ADD COLUMN "last_error_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "data_feed_run_batches" ADD CONSTRAINT "data_feed_run_batches_run_id_data_feed_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."data_feed_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "data_feed_runs_running_idx" ON "data_feed_runs" USING btree ("locked_until") WHERE "data_feed_runs"."status" = 'running';--> statement-breakpoint
-- Runs finished before this migration were received whole and done to their last row.
UPDATE "data_feed_runs" SET "received_at" = "started_at", "rows_done" = "rows_read" WHERE "status" <> 'running';--> statement-breakpoint
-- A run still 'running' now was cut off by a stop of the server under the old code, which kept no
-- record of its progress: it cannot be resumed, so it says it failed (before, it showed Running for ever).
UPDATE "data_feed_runs" SET "status" = 'failed', "finished_at" = "started_at", "received_at" = "started_at", "error" = 'The run stopped before it finished (the server stopped while it ran); some of its rows may not have been admitted. Upload the file again: rows already admitted are skipped as duplicates when they have a transaction id.' WHERE "status" = 'running';
