CREATE TABLE "referral_sources" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer,
	"name" text NOT NULL,
	"code" text NOT NULL,
	"type" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "referral_sources" ADD CONSTRAINT "referral_sources_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "referral_sources_client_code_uq" ON "referral_sources" USING btree (coalesce("client_id", 0),lower("code"));--> statement-breakpoint
CREATE INDEX "referral_sources_client_name_idx" ON "referral_sources" USING btree ("client_id",lower("name"),"id");