CREATE TABLE "email_opt_outs" (
	"email" text PRIMARY KEY NOT NULL,
	"client_id" integer,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "email_suppressions" (
	"email" text PRIMARY KEY NOT NULL,
	"reason" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notification_events" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notification_id" bigint NOT NULL,
	"status" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"detail" text
);
--> statement-breakpoint
CREATE TABLE "notification_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer,
	"location_id" text,
	"channel" text NOT NULL,
	"type" text NOT NULL,
	"recipient" text NOT NULL,
	"subject_or_template" text NOT NULL,
	"body_text" text,
	"body_html" text,
	"provider_message_id" text,
	"status" text NOT NULL,
	"related_type" text,
	"related_id" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "email_opt_outs" ADD CONSTRAINT "email_opt_outs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_events" ADD CONSTRAINT "notification_events_notification_id_notification_logs_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notification_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_logs" ADD CONSTRAINT "notification_logs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notification_logs" ADD CONSTRAINT "notification_logs_location_id_locations__id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_opt_outs_client_idx" ON "email_opt_outs" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "notification_events_notification_idx" ON "notification_events" USING btree ("notification_id","at","id");--> statement-breakpoint
CREATE INDEX "notification_logs_created_idx" ON "notification_logs" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "notification_logs_client_created_idx" ON "notification_logs" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "notification_logs_status_created_idx" ON "notification_logs" USING btree ("status","created_at","id");--> statement-breakpoint
CREATE INDEX "notification_logs_provider_message_idx" ON "notification_logs" USING btree ("provider_message_id");--> statement-breakpoint
CREATE INDEX "notification_logs_related_idx" ON "notification_logs" USING btree ("related_type","related_id");