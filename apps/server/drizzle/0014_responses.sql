CREATE TABLE "survey_responses" (
	"id" serial PRIMARY KEY NOT NULL,
	"processing_item_id" integer NOT NULL,
	"survey_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"location_id" text,
	"personnel_id" integer,
	"key_score" integer,
	"nps_class" text,
	"comment" text,
	"answers" jsonb NOT NULL,
	"questions" jsonb NOT NULL,
	"testimonial_consent" boolean DEFAULT false NOT NULL,
	"excluded" boolean DEFAULT false NOT NULL,
	"excluded_reason" text,
	"submitted_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_processing_item_id_survey_processing_items_id_fk" FOREIGN KEY ("processing_item_id") REFERENCES "public"."survey_processing_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_location_id_locations__id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_responses" ADD CONSTRAINT "survey_responses_personnel_id_personnel_id_fk" FOREIGN KEY ("personnel_id") REFERENCES "public"."personnel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "survey_responses_item_uq" ON "survey_responses" USING btree ("processing_item_id");--> statement-breakpoint
CREATE INDEX "survey_responses_submitted_idx" ON "survey_responses" USING btree ("submitted_at","id");--> statement-breakpoint
CREATE INDEX "survey_responses_client_submitted_idx" ON "survey_responses" USING btree ("client_id","submitted_at","id");--> statement-breakpoint
CREATE INDEX "survey_responses_survey_idx" ON "survey_responses" USING btree ("survey_id");--> statement-breakpoint
CREATE INDEX "survey_responses_location_idx" ON "survey_responses" USING btree ("location_id");--> statement-breakpoint
CREATE INDEX "survey_responses_score_idx" ON "survey_responses" USING btree ("key_score","submitted_at","id") WHERE "survey_responses"."key_score" is not null;