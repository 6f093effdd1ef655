CREATE TABLE "user_preferences" (
	"user_id" integer NOT NULL,
	"key" text NOT NULL,
	"value" jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_preferences_user_id_key_pk" PRIMARY KEY("user_id","key")
);
--> statement-breakpoint
ALTER TABLE "user_preferences" ADD CONSTRAINT "user_preferences_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "system_logs_service_at_idx" ON "system_logs" USING btree ("service","at","id");--> statement-breakpoint
CREATE INDEX "system_logs_actor_at_idx" ON "system_logs" USING btree ("actor_user_id","at","id");--> statement-breakpoint
CREATE INDEX "system_logs_client_at_idx" ON "system_logs" USING btree ("client_id","at","id");--> statement-breakpoint
CREATE INDEX "system_logs_entity_at_idx" ON "system_logs" USING btree ("entity_type","at","id");