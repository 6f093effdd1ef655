CREATE TABLE "locations" (
	"_id" text PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"team_id" integer,
	"locationname" text NOT NULL,
	"external_code" text,
	"address1" text NOT NULL,
	"address2" text,
	"city" text NOT NULL,
	"state" text NOT NULL,
	"postal_code" text NOT NULL,
	"country" text DEFAULT 'US' NOT NULL,
	"phone" text NOT NULL,
	"website" text,
	"timezone" text NOT NULL,
	"google_place_id" text,
	"manager_user_id" integer,
	"hours" jsonb,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_team_id_teams_id_fk" FOREIGN KEY ("team_id") REFERENCES "public"."teams"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "locations" ADD CONSTRAINT "locations_manager_user_id_users_id_fk" FOREIGN KEY ("manager_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "locations_client_name_idx" ON "locations" USING btree ("client_id",lower("locationname"),"_id");--> statement-breakpoint
CREATE UNIQUE INDEX "locations_client_external_code_uq" ON "locations" USING btree ("client_id",lower("external_code")) WHERE "locations"."external_code" is not null;