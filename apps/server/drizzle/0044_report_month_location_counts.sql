CREATE TABLE "report_month_location_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"month" date NOT NULL,
	"location_id" text NOT NULL,
	"channel" text NOT NULL,
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
CREATE UNIQUE INDEX "report_month_location_counts_key_uq" ON "report_month_location_counts" USING btree ("client_id","month","location_id","channel","site");--> statement-breakpoint
CREATE INDEX "report_month_location_counts_month_client_idx" ON "report_month_location_counts" USING btree ("month","client_id");--> statement-breakpoint
-- The month rebuild (migration 0043) also recomputes the location grain of the months it touches, from the same folded day rows.
CREATE OR REPLACE FUNCTION "report_month_counts_rebuild"(p_client int, p_from date, p_to date) RETURNS void
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
  DELETE FROM report_month_location_counts WHERE (p_client IS NULL OR client_id = p_client) AND month BETWEEN lo AND hi;
  INSERT INTO report_month_location_counts (client_id, month, location_id, channel, site,
    sent, delivered, opened, responses, promoters, passives, detractors, score_sum, score_count, csat_positive, csat_answers,
    alerts_fired, alerts_unsent, invites, posted, reviews, rating_sum, rated)
  SELECT client_id, month, location_id, channel, site,
    sum(sent), sum(delivered), sum(opened), sum(responses), sum(promoters), sum(passives), sum(detractors), sum(score_sum), sum(score_count),
    sum(csat_positive), sum(csat_answers), sum(alerts_fired), sum(alerts_unsent), sum(invites), sum(posted), sum(reviews), sum(rating_sum), sum(rated)
  FROM report_month_counts
  WHERE (p_client IS NULL OR client_id = p_client) AND month BETWEEN lo AND hi
  GROUP BY client_id, month, location_id, channel, site;
END $$;
--> statement-breakpoint
SELECT report_month_counts_rebuild(NULL, NULL, NULL);
--> statement-breakpoint
-- Statistics for the month rows just written: without them the planner takes the whole year of a
-- report for a few hundred rows (the embedded database has no autovacuum to gather them later).
ANALYZE "report_month_counts";
--> statement-breakpoint
ANALYZE "report_month_location_counts";
