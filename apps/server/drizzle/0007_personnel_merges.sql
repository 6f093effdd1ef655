CREATE TABLE "personnel_merge_dismissals" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"personnel_ids" integer[] NOT NULL,
	"dismissed_by" integer NOT NULL,
	"dismissed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "personnel_merges" (
	"id" serial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"survivor_id" integer NOT NULL,
	"merged_ids" integer[] NOT NULL,
	"moved_counts" jsonb NOT NULL,
	"field_resolution" jsonb NOT NULL,
	"performed_by" integer NOT NULL,
	"performed_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "personnel_merge_dismissals" ADD CONSTRAINT "personnel_merge_dismissals_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personnel_merge_dismissals" ADD CONSTRAINT "personnel_merge_dismissals_dismissed_by_users_id_fk" FOREIGN KEY ("dismissed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personnel_merges" ADD CONSTRAINT "personnel_merges_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personnel_merges" ADD CONSTRAINT "personnel_merges_survivor_id_personnel_id_fk" FOREIGN KEY ("survivor_id") REFERENCES "public"."personnel"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "personnel_merges" ADD CONSTRAINT "personnel_merges_performed_by_users_id_fk" FOREIGN KEY ("performed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "personnel_merge_dismissals_uq" ON "personnel_merge_dismissals" USING btree ("client_id","personnel_ids");--> statement-breakpoint
CREATE INDEX "personnel_merges_client_idx" ON "personnel_merges" USING btree ("client_id","performed_at","id");--> statement-breakpoint
CREATE INDEX "personnel_client_norm_name_idx" ON "personnel" USING btree ("client_id",regexp_replace(lower("first_name" || "last_name"), '[^a-z]', '', 'g'));--> statement-breakpoint
CREATE INDEX "personnel_client_norm_email_idx" ON "personnel" USING btree ("client_id",lower("email")) WHERE "personnel"."email" is not null;--> statement-breakpoint
CREATE INDEX "personnel_client_norm_code_idx" ON "personnel" USING btree ("client_id",regexp_replace(lower("employee_code"), '[^a-z0-9]', '', 'g')) WHERE "personnel"."employee_code" is not null;--> statement-breakpoint
CREATE INDEX "personnel_client_norm_phone_idx" ON "personnel" USING btree ("client_id",right(regexp_replace("phone", '[^0-9]', '', 'g'), 10)) WHERE "personnel"."phone" is not null;