ALTER TABLE "client_users" ADD COLUMN "updated_at" timestamp with time zone DEFAULT now() NOT NULL;--> statement-breakpoint
-- Existing members: their version is when they joined, or their last audited change since (what it was read from before).
UPDATE "client_users" cu SET "updated_at" = greatest(cu."created_at", coalesce((SELECT max(l."at") FROM "system_logs" l WHERE l."entity_type" = 'client_user' AND l."entity_id" = cu."user_id"::text), cu."created_at"));
