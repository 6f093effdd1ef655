CREATE TABLE "client_survey_settings" (
	"client_id" integer PRIMARY KEY NOT NULL,
	"from_name" text NOT NULL,
	"from_email" text NOT NULL,
	"reply_to" text,
	"sending_domain" text,
	"domain_verified" boolean DEFAULT false NOT NULL,
	"domain_checked_at" timestamp with time zone,
	"quiet_hours_start" text DEFAULT '21:00' NOT NULL,
	"quiet_hours_end" text DEFAULT '08:00' NOT NULL,
	"send_days" text[] DEFAULT '{mon,tue,wed,thu,fri,sat}'::text[] NOT NULL,
	"daily_cap_per_location" integer DEFAULT 50 NOT NULL,
	"over_survey_days" integer DEFAULT 90 NOT NULL,
	"default_survey_id" integer,
	"logo_url" text,
	"brand_color" text,
	"sms_sender" text,
	"sms_enabled" boolean DEFAULT false NOT NULL,
	"tcpa_consent_source" text,
	"unsubscribe_footer" text DEFAULT 'You received this because you visited {business_name}. Unsubscribe: {unsubscribe_link}' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "client_survey_settings" ADD CONSTRAINT "client_survey_settings_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "client_survey_settings_verified_idx" ON "client_survey_settings" USING btree ("domain_verified");