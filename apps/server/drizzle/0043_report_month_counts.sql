CREATE TABLE "report_month_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"month" date NOT NULL,
	"location_id" text NOT NULL,
	"personnel_id" integer NOT NULL,
	"survey_id" integer NOT NULL,
	"channel" text NOT NULL,
	"product_id" integer NOT NULL,
	"referral_source_id" integer NOT NULL,
	"site" text NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"delivered" integer DEFAULT 0 NOT NULL,
	"opened" integer DEFAULT 0 NOT NULL,
	"responses" integer DEFAULT 0 NOT NULL,
	"promoters" integer DEFAULT 0 NOT NULL,
	"passives" integer DEFAULT 0 NOT NULL,
	"detractors" integer DEFAULT 0 NOT NULL,
	"score_sum" integer DEFAULT 0 NOT NULL,
	"score_count" integer DEFAULT 0 NOT NULL,
	"csat_positive" integer DEFAULT 0 NOT NULL,
	"csat_answers" integer DEFAULT 0 NOT NULL,
	"alerts_fired" integer DEFAULT 0 NOT NULL,
	"alerts_unsent" integer DEFAULT 0 NOT NULL,
	"invites" integer DEFAULT 0 NOT NULL,
	"posted" integer DEFAULT 0 NOT NULL,
	"reviews" integer DEFAULT 0 NOT NULL,
	"rating_sum" integer DEFAULT 0 NOT NULL,
	"rated" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "report_month_counts_key_uq" ON "report_month_counts" USING btree ("client_id","month","location_id","personnel_id","survey_id","channel","product_id","referral_source_id","site");--> statement-breakpoint
CREATE INDEX "report_month_counts_month_client_idx" ON "report_month_counts" USING btree ("month","client_id");--> statement-breakpoint
-- The day rebuild keeps its body under a new name; report_counts_rebuild (what the zone-change
-- trigger, rebuildReportCounts and `npm run reports:rebuild` call) now also recomputes the months
-- the range touches, whole, from the folded day rows: a month row is the sum of its folded days.
ALTER FUNCTION "report_counts_rebuild"(int, date, date) RENAME TO "report_day_counts_rebuild";
--> statement-breakpoint
CREATE FUNCTION "report_month_counts_rebuild"(p_client int, p_from date, p_to date) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  lo date := date_trunc('month', coalesce(p_from, '-infinity'::date))::date;
  hi date := coalesce((date_trunc('month', p_to) + interval '1 month' - interval '1 day')::date, 'infinity'::date);
BEGIN
  DELETE FROM report_month_counts WHERE (p_client IS NULL OR client_id = p_client) AND month BETWEEN lo AND hi;
  INSERT INTO report_month_counts (client_id, month, location_id, personnel_id, survey_id, channel, product_id, referral_source_id, site,
    sent, delivered, opened, responses, promoters, passives, detractors, score_sum, score_count, csat_positive, csat_answers,
    alerts_fired, alerts_unsent, invites, posted, reviews, rating_sum, rated)
  SELECT client_id, date_trunc('month', day)::date, location_id, personnel_id, survey_id, channel, product_id, referral_source_id, site,
    sum(sent), sum(delivered), sum(opened), sum(responses), sum(promoters), sum(passives), sum(detractors), sum(score_sum), sum(score_count),
    sum(csat_positive), sum(csat_answers), sum(alerts_fired), sum(alerts_unsent), sum(invites), sum(posted), sum(reviews), sum(rating_sum), sum(rated)
  FROM report_day_counts
  WHERE folded AND (p_client IS NULL OR client_id = p_client) AND day BETWEEN lo AND hi
  GROUP BY client_id, date_trunc('month', day)::date, location_id, personnel_id, survey_id, channel, product_id, referral_source_id, site;
END $$;
--> statement-breakpoint
CREATE FUNCTION "report_counts_rebuild"(p_client int, p_from date, p_to date) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_day_counts_rebuild(p_client, p_from, p_to);
  PERFORM report_month_counts_rebuild(p_client, p_from, p_to);
END $$;
--> statement-breakpoint
-- The folded rows already there.
SELECT report_month_counts_rebuild(NULL, NULL, NULL);
