CREATE TABLE "survey_alert_digests" (
	"id" serial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone,
	"notification_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_alert_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"rule_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"response_id" integer,
	"processing_item_id" integer,
	"channel" text NOT NULL,
	"recipient" text NOT NULL,
	"state" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_attempt_at" timestamp with time zone,
	"next_retry_at" timestamp with time zone,
	"notification_id" bigint,
	"digest_id" integer,
	"ack_token_hash" text,
	"acknowledged_at" timestamp with time zone,
	"escalated_at" timestamp with time zone,
	"resent_to" text,
	"dismissed_by" integer,
	"note" text,
	"test" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "survey_alert_recipients" (
	"rule_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"added_by" text DEFAULT 'chosen' NOT NULL,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "survey_alert_recipients_rule_id_user_id_pk" PRIMARY KEY("rule_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "survey_alert_rules" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"survey_ids" integer[] DEFAULT '{}' NOT NULL,
	"location_ids" text[] DEFAULT '{}' NOT NULL,
	"trigger" text NOT NULL,
	"score_min" integer,
	"score_max" integer,
	"keywords" text[] DEFAULT '{}' NOT NULL,
	"no_response_days" integer,
	"channels" text[] DEFAULT '{email}' NOT NULL,
	"extra_emails" text[] DEFAULT '{}' NOT NULL,
	"extra_phones" text[] DEFAULT '{}' NOT NULL,
	"notify_assigned_personnel" boolean DEFAULT false NOT NULL,
	"notify_location_manager" boolean DEFAULT false NOT NULL,
	"frequency" text DEFAULT 'instant' NOT NULL,
	"digest_hour" integer,
	"escalate_after_hours" integer,
	"escalation_emails" text[] DEFAULT '{}' NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "testimonials" (
	"id" serial PRIMARY KEY NOT NULL,
	"response_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"location_id" text,
	"survey_id" integer NOT NULL,
	"personnel_id" integer,
	"display_name" text NOT NULL,
	"original_text" text NOT NULL,
	"display_text" text NOT NULL,
	"rating" integer,
	"consent" boolean DEFAULT false NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"featured" boolean DEFAULT false NOT NULL,
	"approved_by" integer,
	"approved_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"submitted_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_users" ADD COLUMN "alert_channels" text[] DEFAULT '{email}' NOT NULL;--> statement-breakpoint
ALTER TABLE "client_users" ADD COLUMN "status" text DEFAULT 'active' NOT NULL;--> statement-breakpoint
ALTER TABLE "client_users" ADD COLUMN "created_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "phone" text;--> statement-breakpoint
ALTER TABLE "survey_alert_digests" ADD CONSTRAINT "survey_alert_digests_rule_id_survey_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."survey_alert_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_alert_digests" ADD CONSTRAINT "survey_alert_digests_notification_id_notification_logs_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notification_logs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_alert_events" ADD CONSTRAINT "survey_alert_events_rule_id_survey_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."survey_alert_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_alert_events" ADD CONSTRAINT "survey_alert_events_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_alert_events" ADD CONSTRAINT "survey_alert_events_response_id_survey_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."survey_responses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_alert_events" ADD CONSTRAINT "survey_alert_events_processing_item_id_survey_processing_items_id_fk" FOREIGN KEY ("processing_item_id") REFERENCES "public"."survey_processing_items"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_alert_events" ADD CONSTRAINT "survey_alert_events_notification_id_notification_logs_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notification_logs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_alert_recipients" ADD CONSTRAINT "survey_alert_recipients_rule_id_survey_alert_rules_id_fk" FOREIGN KEY ("rule_id") REFERENCES "public"."survey_alert_rules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_alert_rules" ADD CONSTRAINT "survey_alert_rules_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_response_id_survey_responses_id_fk" FOREIGN KEY ("response_id") REFERENCES "public"."survey_responses"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_location_id_locations__id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "testimonials" ADD CONSTRAINT "testimonials_personnel_id_personnel_id_fk" FOREIGN KEY ("personnel_id") REFERENCES "public"."personnel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "survey_alert_digests_once_uq" ON "survey_alert_digests" USING btree ("rule_id","recipient","channel","period_start");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_alert_events_once_uq" ON "survey_alert_events" USING btree ("rule_id",coalesce("response_id", 0),coalesce("processing_item_id", 0),"channel","recipient") WHERE not "survey_alert_events"."test";--> statement-breakpoint
CREATE INDEX "survey_alert_events_state_idx" ON "survey_alert_events" USING btree ("state","created_at","id");--> statement-breakpoint
CREATE INDEX "survey_alert_events_client_idx" ON "survey_alert_events" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "survey_alert_events_retry_idx" ON "survey_alert_events" USING btree ("next_retry_at") WHERE "survey_alert_events"."state" in ('pending', 'retrying');--> statement-breakpoint
CREATE INDEX "survey_alert_events_rule_idx" ON "survey_alert_events" USING btree ("rule_id","created_at");--> statement-breakpoint
CREATE INDEX "survey_alert_events_ack_idx" ON "survey_alert_events" USING btree ("ack_token_hash");--> statement-breakpoint
CREATE INDEX "survey_alert_recipients_user_idx" ON "survey_alert_recipients" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "survey_alert_rules_client_idx" ON "survey_alert_rules" USING btree ("client_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "testimonials_response_uq" ON "testimonials" USING btree ("response_id");--> statement-breakpoint
CREATE INDEX "testimonials_client_submitted_idx" ON "testimonials" USING btree ("client_id","submitted_at","id");--> statement-breakpoint
CREATE INDEX "testimonials_published_idx" ON "testimonials" USING btree ("client_id","featured","published_at","id") WHERE "testimonials"."status" = 'published';--> statement-breakpoint
CREATE INDEX "testimonials_location_idx" ON "testimonials" USING btree ("location_id","submitted_at");