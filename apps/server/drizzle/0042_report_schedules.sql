CREATE TABLE "notification_attachments" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"notification_id" bigint NOT NULL,
	"filename" text NOT NULL,
	"content_type" text NOT NULL,
	"size_bytes" integer NOT NULL,
	"content" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_schedule_runs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"schedule_id" integer NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"status" text NOT NULL,
	"attempt" integer DEFAULT 1 NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"error" text,
	"notification_ids" bigint[] DEFAULT '{}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "report_schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"report" text NOT NULL,
	"filters" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"recipients" text[] DEFAULT '{}' NOT NULL,
	"frequency" text NOT NULL,
	"weekday" text,
	"day_of_month" integer,
	"hour" integer NOT NULL,
	"timezone" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"last_sent_at" timestamp with time zone,
	"last_status" text,
	"last_period_start" date,
	"last_period_end" date,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_attachments" ADD CONSTRAINT "notification_attachments_notification_id_notification_logs_id_fk" FOREIGN KEY ("notification_id") REFERENCES "public"."notification_logs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedule_runs" ADD CONSTRAINT "report_schedule_runs_schedule_id_report_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."report_schedules"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "report_schedules" ADD CONSTRAINT "report_schedules_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "notification_attachments_notification_idx" ON "notification_attachments" USING btree ("notification_id");--> statement-breakpoint
CREATE UNIQUE INDEX "report_schedule_runs_once_uq" ON "report_schedule_runs" USING btree ("schedule_id","period_start");--> statement-breakpoint
CREATE INDEX "report_schedules_client_idx" ON "report_schedules" USING btree ("client_id","status");