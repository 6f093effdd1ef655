CREATE TABLE "survey_locations" (
	"survey_id" integer NOT NULL,
	"location_id" text NOT NULL,
	CONSTRAINT "survey_locations_survey_id_location_id_pk" PRIMARY KEY("survey_id","location_id")
);
--> statement-breakpoint
CREATE TABLE "survey_processing_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"location_id" text,
	"survey_id" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text,
	"email" text,
	"phone" text,
	"transaction_id" text,
	"transaction_date" text,
	"personnel_id" integer,
	"channel" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"skip_reason" text,
	"scheduled_at" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"token" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"source" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "surveys" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"language" text NOT NULL,
	"channel" text NOT NULL,
	"questions" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"email_subject" text,
	"email_body" text,
	"sms_template_id" integer,
	"sender_name" text NOT NULL,
	"reply_to" text,
	"send_delay_hours" integer DEFAULT 24 NOT NULL,
	"reminder_count" integer DEFAULT 1 NOT NULL,
	"reminder_interval_days" integer DEFAULT 3 NOT NULL,
	"link_expires_days" integer DEFAULT 30 NOT NULL,
	"over_survey_days" integer DEFAULT 90,
	"review_invite_mode" text DEFAULT 'all_respondents' NOT NULL,
	"review_invite_threshold" integer,
	"review_sites" text[] DEFAULT '{}'::text[] NOT NULL,
	"testimonial_consent_text" text,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "survey_locations" ADD CONSTRAINT "survey_locations_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_locations" ADD CONSTRAINT "survey_locations_location_id_locations__id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD CONSTRAINT "survey_processing_items_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD CONSTRAINT "survey_processing_items_location_id_locations__id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD CONSTRAINT "survey_processing_items_survey_id_surveys_id_fk" FOREIGN KEY ("survey_id") REFERENCES "public"."surveys"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "survey_processing_items" ADD CONSTRAINT "survey_processing_items_personnel_id_personnel_id_fk" FOREIGN KEY ("personnel_id") REFERENCES "public"."personnel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "surveys" ADD CONSTRAINT "surveys_sms_template_id_sms_templates_id_fk" FOREIGN KEY ("sms_template_id") REFERENCES "public"."sms_templates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "survey_locations_location_idx" ON "survey_locations" USING btree ("location_id");--> statement-breakpoint
CREATE UNIQUE INDEX "survey_processing_items_token_uq" ON "survey_processing_items" USING btree ("token");--> statement-breakpoint
CREATE INDEX "survey_processing_items_client_created_idx" ON "survey_processing_items" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "survey_processing_items_survey_created_idx" ON "survey_processing_items" USING btree ("survey_id","created_at","id");--> statement-breakpoint
CREATE INDEX "survey_processing_items_status_idx" ON "survey_processing_items" USING btree ("status","scheduled_at");--> statement-breakpoint
CREATE INDEX "surveys_client_name_idx" ON "surveys" USING btree ("client_id",lower("name"),"id");