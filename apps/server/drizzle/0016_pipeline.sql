CREATE TABLE "api_call_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"location_id" text NOT NULL,
	"token_id" integer,
	"received_at" timestamp with time zone NOT NULL,
	"ip" text NOT NULL,
	"status_code" integer NOT NULL,
	"rows_accepted" integer DEFAULT 0 NOT NULL,
	"rows_rejected" integer DEFAULT 0 NOT NULL,
	"run_id" integer,
	"error" text
);
--> statement-breakpoint
CREATE TABLE "api_tokens" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"client_id" integer,
	"name" text NOT NULL,
	"prefix" text NOT NULL,
	"token_hash" text NOT NULL,
	"last4" text NOT NULL,
	"scopes" text[] NOT NULL,
	"allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"expires_at" timestamp with time zone,
	"last_used_at" timestamp with time zone,
	"last_used_ip" text,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revoked_at" timestamp with time zone,
	"replaces_id" integer
);
--> statement-breakpoint
CREATE TABLE "data_feed_files" (
	"data_feed_id" integer NOT NULL,
	"name" text NOT NULL,
	"size" integer NOT NULL,
	"modified_at" timestamp with time zone NOT NULL,
	"run_id" integer,
	"taken_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_feed_row_errors" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"run_id" integer NOT NULL,
	"row_number" integer NOT NULL,
	"column" text,
	"message" text NOT NULL,
	"raw" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "data_feed_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"data_feed_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"source" text NOT NULL,
	"source_name" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	"rows_read" integer DEFAULT 0 NOT NULL,
	"rows_accepted" integer DEFAULT 0 NOT NULL,
	"rows_skipped" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"rows_invalid" integer DEFAULT 0 NOT NULL,
	"scheduled" integer DEFAULT 0 NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"error" text,
	"rerun_of" integer,
	"started_by" integer
);
--> statement-breakpoint
CREATE TABLE "data_feeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"source_type" text NOT NULL,
	"vendor" text,
	"trigger_event" text NOT NULL,
	"survey_id" integer NOT NULL,
	"location_mode" text DEFAULT 'single' NOT NULL,
	"location_id" text,
	"schedule_cron" text,
	"sftp_host" text,
	"sftp_port" integer DEFAULT 22 NOT NULL,
	"sftp_path" text,
	"sftp_username" text,
	"sftp_password_enc" text,
	"file_name_pattern" text,
	"delimiter" text DEFAULT 'comma' NOT NULL,
	"has_header" boolean DEFAULT true NOT NULL,
	"date_format" text DEFAULT 'yyyy-MM-dd' NOT NULL,
	"field_mapping" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"last_run_at" timestamp with time zone,
	"last_received" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "endpoint_configs" (
	"location_id" text PRIMARY KEY NOT NULL,
	"survey_id" integer,
	"data_feed_id" integer,
	"token_id" integer,
	"allowed_ips" text[] DEFAULT '{}'::text[] NOT NULL,
	"payload_format" text DEFAULT 'json' NOT NULL,
	"rate_limit_per_min" integer DEFAULT 60 NOT NULL,
	"webhook_secret_hash" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"run_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"max_attempts" integer DEFAULT 5 NOT NULL,
	"locked_by" text,
	"locked_until" timestamp with time zone,
	"last_error" text,
	"singleton_key" text,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "survey_change_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"survey_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"user_id" integer,
	"action" text NOT NULL,
	"diff" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "product_id" integer;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "referral_source_id" integer;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "amount" numeric(14, 2);--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "sms_opt_in" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "data_feed_id" integer;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "run_id" integer;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "row_number" integer;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "raw" jsonb;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD COLUMN "reminders_sent" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_feed_files" ADD CONSTRAINT "data_feed_files_data_feed_id_data_feeds_id_fk" FOREIGN KEY ("data_feed_id") REFERENCES "public"."data_feeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_feed_row_errors" ADD CONSTRAINT "data_feed_row_errors_run_id_data_feed_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."data_feed_runs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_feed_runs" ADD CONSTRAINT "data_feed_runs_data_feed_id_data_feeds_id_fk" FOREIGN KEY ("data_feed_id") REFERENCES "public"."data_feeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_feed_runs" ADD CONSTRAINT "data_feed_runs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_feed_runs" ADD CONSTRAINT "data_feed_runs_started_by_users_id_fk" FOREIGN KEY ("started_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_feeds" ADD CONSTRAINT "data_feeds_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_feeds" ADD CONSTRAINT "data_feeds_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "data_feeds" ADD CONSTRAINT "data_feeds_location_id_locations__id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_configs" ADD CONSTRAINT "endpoint_configs_location_id_locations__id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_configs" ADD CONSTRAINT "endpoint_configs_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_configs" ADD CONSTRAINT "endpoint_configs_data_feed_id_data_feeds_id_fk" FOREIGN KEY ("data_feed_id") REFERENCES "public"."data_feeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "endpoint_configs" ADD CONSTRAINT "endpoint_configs_token_id_api_tokens_id_fk" FOREIGN KEY ("token_id") REFERENCES "public"."api_tokens"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_change_logs" ADD CONSTRAINT "survey_change_logs_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_change_logs" ADD CONSTRAINT "survey_change_logs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_change_logs" ADD CONSTRAINT "survey_change_logs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "api_call_logs_location_received_idx" ON "api_call_logs" USING btree ("location_id","received_at");--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_hash_uq" ON "api_tokens" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "api_tokens_user_idx" ON "api_tokens" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "data_feed_files_uq" ON "data_feed_files" USING btree ("data_feed_id","name","size","modified_at");--> statement-breakpoint
CREATE INDEX "data_feed_row_errors_run_idx" ON "data_feed_row_errors" USING btree ("run_id","row_number");--> statement-breakpoint
CREATE INDEX "data_feed_runs_feed_started_idx" ON "data_feed_runs" USING btree ("data_feed_id","started_at","id");--> statement-breakpoint
CREATE INDEX "data_feed_runs_client_started_idx" ON "data_feed_runs" USING btree ("client_id","started_at","id");--> statement-breakpoint
CREATE INDEX "data_feeds_client_name_idx" ON "data_feeds" USING btree ("client_id",lower("name"),"id");--> statement-breakpoint
CREATE INDEX "jobs_due_idx" ON "jobs" USING btree ("queue","status","run_at");--> statement-breakpoint
CREATE UNIQUE INDEX "jobs_singleton_uq" ON "jobs" USING btree ("singleton_key") WHERE "jobs"."status" in ('pending', 'running') and "jobs"."singleton_key" is not null;--> statement-breakpoint
CREATE INDEX "survey_change_logs_client_at_idx" ON "survey_change_logs" USING btree ("client_id","at","id");--> statement-breakpoint
CREATE INDEX "survey_change_logs_survey_idx" ON "survey_change_logs" USING btree ("survey_id","at");--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD CONSTRAINT "survey_processing_items_product_id_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD CONSTRAINT "survey_processing_items_referral_source_id_referral_sources_id_fk" FOREIGN KEY ("referral_source_id") REFERENCES "public"."referral_sources"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "survey_processing_items_client_status_created_idx" ON "survey_processing_items" USING btree ("client_id","status","created_at","id");--> statement-breakpoint
CREATE INDEX "survey_processing_items_transaction_idx" ON "survey_processing_items" USING btree ("client_id","transaction_id");--> statement-breakpoint
CREATE INDEX "survey_processing_items_email_idx" ON "survey_processing_items" USING btree ("client_id","email");--> statement-breakpoint
CREATE INDEX "survey_processing_items_phone_idx" ON "survey_processing_items" USING btree ("client_id","phone");--> statement-breakpoint
CREATE INDEX "survey_processing_items_run_idx" ON "survey_processing_items" USING btree ("run_id");