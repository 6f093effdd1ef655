CREATE TABLE "personnel" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text NOT NULL,
	"display_name" text,
	"title" text,
	"employee_code" text,
	"aliases" text[] DEFAULT '{}'::text[] NOT NULL,
	"email" text,
	"phone" text,
	"photo_url" text,
	"status" text DEFAULT 'active' NOT NULL,
	"merged_into_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personnel_locations" (
	"personnel_id" integer NOT NULL,
	"location_id" text NOT NULL,
	CONSTRAINT "personnel_locations_personnel_id_location_id_pk" PRIMARY KEY("personnel_id","location_id")
);
--> statement-breakpoint
ALTER TABLE "personnel" ADD CONSTRAINT "personnel_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personnel" ADD CONSTRAINT "personnel_merged_into_id_personnel_id_fk" FOREIGN KEY ("merged_into_id") REFERENCES "public"."personnel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personnel_locations" ADD CONSTRAINT "personnel_locations_personnel_id_personnel_id_fk" FOREIGN KEY ("personnel_id") REFERENCES "public"."personnel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personnel_locations" ADD CONSTRAINT "personnel_locations_location_id_locations__id_fk" FOREIGN KEY ("location_id") REFERENCES "public"."locations"("_id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personnel_client_name_idx" ON "personnel" USING btree ("client_id",lower("last_name" || ' ' || "first_name"),"id");--> statement-breakpoint
CREATE UNIQUE INDEX "personnel_client_code_uq" ON "personnel" USING btree ("client_id",lower("employee_code")) WHERE "personnel"."employee_code" is not null;--> statement-breakpoint
CREATE INDEX "personnel_locations_location_idx" ON "personnel_locations" USING btree ("location_id");