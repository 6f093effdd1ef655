CREATE TABLE "api_refusal_summaries" (
	"ip" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"system_log_id" bigint NOT NULL,
	"refused" integer DEFAULT 0 NOT NULL,
	"throttled" integer DEFAULT 0 NOT NULL,
	"endpoints" text[] NOT NULL,
	"more_endpoints" boolean DEFAULT false NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "api_refusal_summaries_ip_window_start_pk" PRIMARY KEY("ip","window_start")
);
--> statement-breakpoint
CREATE INDEX "api_refusal_summaries_window_idx" ON "api_refusal_summaries" USING btree ("window_start");--> statement-breakpoint
CREATE INDEX "api_call_logs_received_idx" ON "api_call_logs" USING btree ("received_at");--> statement-breakpoint
-- One unrevoked token per user becomes a constraint (decision 032). Parallel Generates may have left
-- a user several: the newest is kept, the older ones are revoked now.
UPDATE "api_tokens" t SET "revoked_at" = now(), "updated_at" = now()
WHERE t."revoked_at" IS NULL
  AND EXISTS (SELECT 1 FROM "api_tokens" n WHERE n."user_id" = t."user_id" AND n."revoked_at" IS NULL AND n."id" > t."id");--> statement-breakpoint
-- A client user's token feeds only the client it was issued for: the one client the user belongs to
-- (earlier tokens recorded the user's current client, null for portal users).
UPDATE "api_tokens" t SET "client_id" = c."client_id"
FROM (SELECT "user_id", min("client_id") AS "client_id" FROM "client_users" GROUP BY "user_id" HAVING count(*) = 1) c, "users" u
WHERE c."user_id" = t."user_id" AND u."id" = t."user_id" AND u."is_superadmin" <> 1;--> statement-breakpoint
-- Revoking a token ends the webhook secrets of the endpoints bound to it: so for those revoked before.
UPDATE "endpoint_configs" e SET "webhook_secret_hash" = NULL
WHERE e."webhook_secret_hash" IS NOT NULL
  AND EXISTS (SELECT 1 FROM "api_tokens" t WHERE t."id" = e."token_id" AND t."revoked_at" IS NOT NULL AND t."revoked_at" <= now());--> statement-breakpoint
CREATE UNIQUE INDEX "api_tokens_user_live_uq" ON "api_tokens" USING btree ("user_id") WHERE "api_tokens"."revoked_at" is null;