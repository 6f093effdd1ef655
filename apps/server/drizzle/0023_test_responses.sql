DROP INDEX "survey_responses_survey_idx";--> statement-breakpoint
ALTER TABLE "survey_responses" ADD COLUMN "test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "survey_responses_survey_submitted_idx" ON "survey_responses" USING btree ("survey_id","submitted_at","id");--> statement-breakpoint
-- Answers to Send test invitations recorded before the column existed are tests too.
UPDATE "survey_responses" SET "test" = true FROM "survey_processing_items" i WHERE i."id" = "survey_responses"."processing_item_id" AND i."source" = 'manual_test';
