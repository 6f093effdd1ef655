CREATE TABLE "ses_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_id" text NOT NULL,
	"event_type" text NOT NULL,
	"recipient" text NOT NULL,
	"source" text NOT NULL,
	"subject" text,
	"configuration_set" text,
	"bounce_type" text,
	"bounce_subtype" text,
	"complaint_feedback_type" text,
	"diagnostic_code" text,
	"reporting_mta" text,
	"event_at" timestamp with time zone NOT NULL,
	"raw" jsonb NOT NULL,
	"sns_message_id" text,
	"notification_id" bigint,
	"client_id" integer,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_inbound_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_sid" text NOT NULL,
	"from_phone" text NOT NULL,
	"to_phone" text NOT NULL,
	"body" text NOT NULL,
	"action" text NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sms_status_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"message_sid" text NOT NULL,
	"status" text NOT NULL,
	"error_code" text,
	"raw" jsonb NOT NULL,
	"notification_id" bigint,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "suppressed" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "last_bounce_type" text;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "last_bounce_subtype" text;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "last_diagnostic_code" text;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "bounce_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "complaint_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "last_template" text;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "client_ids" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "first_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "last_seen_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "suppressed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "released_by" integer;--> statement-breakpoint
ALTER TABLE "email_suppressions" ADD COLUMN "release_reason" text;--> statement-breakpoint
ALTER TABLE "ses_events" ADD CONSTRAINT "ses_events_notification_id_notification_logs_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notification_logs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ses_events" ADD CONSTRAINT "ses_events_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sms_status_events" ADD CONSTRAINT "sms_status_events_notification_id_notification_logs_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notification_logs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ses_events_identity_uq" ON "ses_events" USING btree ("message_id","event_type","recipient","event_at");--> statement-breakpoint
CREATE INDEX "ses_events_event_at_idx" ON "ses_events" USING btree ("event_at","id");--> statement-breakpoint
CREATE INDEX "ses_events_type_event_at_idx" ON "ses_events" USING btree ("event_type","event_at","id");--> statement-breakpoint
CREATE INDEX "ses_events_client_event_at_idx" ON "ses_events" USING btree ("client_id","event_at","id");--> statement-breakpoint
CREATE INDEX "ses_events_recipient_event_at_idx" ON "ses_events" USING btree ("recipient","event_at","id");--> statement-breakpoint
CREATE INDEX "ses_events_notification_idx" ON "ses_events" USING btree ("notification_id") WHERE "ses_events"."notification_id" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "sms_inbound_messages_sid_uq" ON "sms_inbound_messages" USING btree ("message_sid");--> statement-breakpoint
CREATE INDEX "sms_inbound_messages_from_idx" ON "sms_inbound_messages" USING btree ("from_phone","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "sms_status_events_uq" ON "sms_status_events" USING btree ("message_sid","status");--> statement-breakpoint
CREATE INDEX "sms_status_events_notification_idx" ON "sms_status_events" USING btree ("notification_id") WHERE "sms_status_events"."notification_id" is not null;--> statement-breakpoint
CREATE INDEX "email_suppressions_last_seen_idx" ON "email_suppressions" USING btree ("last_seen_at","email");--> statement-breakpoint
CREATE INDEX "email_suppressions_suppressed_idx" ON "email_suppressions" USING btree ("suppressed","last_seen_at","email");--> statement-breakpoint
UPDATE "email_suppressions" SET "first_seen_at" = "created_at", "last_seen_at" = "created_at", "suppressed_at" = "created_at";