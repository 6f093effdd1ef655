CREATE TABLE "login_refusal_summaries" (
	"ip" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"system_log_id" bigint NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"throttled" integer DEFAULT 0 NOT NULL,
	"accounts" text[] NOT NULL,
	"more_accounts" boolean DEFAULT false NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_refusal_summaries_ip_window_start_pk" PRIMARY KEY("ip","window_start")
);
--> statement-breakpoint
DROP INDEX "login_attempts_email_at_idx";