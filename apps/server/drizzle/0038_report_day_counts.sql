CREATE TABLE "report_day_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"day" date NOT NULL,
	"location_id" text NOT NULL,
	"personnel_id" integer NOT NULL,
	"survey_id" integer NOT NULL,
	"channel" text NOT NULL,
	"product_id" integer NOT NULL,
	"referral_source_id" integer NOT NULL,
	"site" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"responses" integer DEFAULT 0 NOT NULL,
	"promoters" integer DEFAULT 0 NOT NULL,
	"passives" integer DEFAULT 0 NOT NULL,
	"detractors" integer DEFAULT 0 NOT NULL,
	"score_sum" integer DEFAULT 0 NOT NULL,
	"score_count" integer DEFAULT 0 NOT NULL,
	"csat_positive" integer DEFAULT 0 NOT NULL,
	"csat_answers" integer DEFAULT 0 NOT NULL,
	"alerts_fired" integer DEFAULT 0 NOT NULL,
	"alerts_unsent" integer DEFAULT 0 NOT NULL,
	"invites" integer DEFAULT 0 NOT NULL,
	"posted" integer DEFAULT 0 NOT NULL,
	"reviews" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rated" integer DEFAULT 0 NOT NULL,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "report_day_counts_day_client_idx" ON "report_day_counts" USING btree ("day","client_id");--> statement-breakpoint
CREATE INDEX "report_day_counts_client_day_idx" ON "report_day_counts" USING btree ("client_id","day");--> statement-breakpoint
CREATE UNIQUE INDEX "report_day_counts_folded_uq" ON "report_day_counts" USING btree ("client_id","day","location_id","personnel_id","survey_id","channel","product_id","referral_source_id","site") WHERE "report_day_counts"."folded";--> statement-breakpoint
CREATE INDEX "report_day_counts_unfolded_idx" ON "report_day_counts" USING btree ("id") WHERE not "report_day_counts"."folded";