CREATE TABLE "amplification_day_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"site" text NOT NULL,
	"day" date NOT NULL,
	"location_id" text NOT NULL,
	"personnel_id" integer NOT NULL,
	"status" text NOT NULL,
	"invited" integer NOT NULL,
	"clicked" integer NOT NULL,
	"posted" integer NOT NULL,
	"rating_sum" integer NOT NULL,
	"rated" integer NOT NULL,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "amplification_day_counts_client_site_day_idx" ON "amplification_day_counts" USING btree ("client_id","site","day");--> statement-breakpoint
CREATE UNIQUE INDEX "amplification_day_counts_folded_uq" ON "amplification_day_counts" USING btree ("client_id","site","day","location_id","personnel_id","status") WHERE "amplification_day_counts"."folded";--> statement-breakpoint
CREATE INDEX "amplification_day_counts_unfolded_idx" ON "amplification_day_counts" USING btree ("id") WHERE not "amplification_day_counts"."folded";--> statement-breakpoint
-- The KPI summary's triggers (docs/decisions/053): each write to an amplification appends the
-- change it makes to the counts of its key, in the writing transaction; a rating change of a
-- review does the same for the posted invitation holding it. The review's row is read FOR SHARE,
-- so a concurrent rating change waits for this transaction (and then sees its amplification) or
-- this read waits for it (and sees its rating): neither delta is lost.
CREATE FUNCTION "amplification_day_counts_rating"(p_review bigint, p_posted boolean) RETURNS smallint
LANGUAGE plpgsql AS $$
DECLARE r smallint;
BEGIN
  IF NOT p_posted OR p_review IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT rating INTO r FROM reviews WHERE id = p_review FOR SHARE;
  RETURN r;
END $$;
--> statement-breakpoint
CREATE FUNCTION "amplification_day_counts_amplification"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  o_rating smallint;
  n_rating smallint;
  same boolean := false;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    o_rating := amplification_day_counts_rating(OLD.review_id, OLD.status = 'posted');
  END IF;
  IF TG_OP <> 'DELETE' THEN
    n_rating := amplification_day_counts_rating(NEW.review_id, NEW.status = 'posted');
  END IF;
  IF TG_OP = 'UPDATE' THEN
    same := OLD.client_id = NEW.client_id AND OLD.site = NEW.site AND OLD.invited_at = NEW.invited_at
      AND OLD.location_id = NEW.location_id AND coalesce(OLD.personnel_id, 0) = coalesce(NEW.personnel_id, 0)
      AND OLD.status = NEW.status;
  END IF;
  IF same THEN
    -- One key: one row with the difference, none when nothing the counts read changed.
    IF (OLD.clicked_at IS NULL) IS DISTINCT FROM (NEW.clicked_at IS NULL) OR o_rating IS DISTINCT FROM n_rating THEN
      INSERT INTO amplification_day_counts (client_id, site, day, location_id, personnel_id, status, invited, clicked, posted, rating_sum, rated)
      VALUES (NEW.client_id, NEW.site, (NEW.invited_at AT TIME ZONE 'UTC')::date, NEW.location_id, coalesce(NEW.personnel_id, 0), NEW.status,
        0, (NEW.clicked_at IS NOT NULL)::int - (OLD.clicked_at IS NOT NULL)::int, 0,
        coalesce(n_rating, 0) - coalesce(o_rating, 0), (n_rating IS NOT NULL)::int - (o_rating IS NOT NULL)::int);
    END IF;
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO amplification_day_counts (client_id, site, day, location_id, personnel_id, status, invited, clicked, posted, rating_sum, rated)
    VALUES (OLD.client_id, OLD.site, (OLD.invited_at AT TIME ZONE 'UTC')::date, OLD.location_id, coalesce(OLD.personnel_id, 0), OLD.status,
      -1, -(OLD.clicked_at IS NOT NULL)::int, -(OLD.status = 'posted')::int, -coalesce(o_rating, 0), -(o_rating IS NOT NULL)::int);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO amplification_day_counts (client_id, site, day, location_id, personnel_id, status, invited, clicked, posted, rating_sum, rated)
    VALUES (NEW.client_id, NEW.site, (NEW.invited_at AT TIME ZONE 'UTC')::date, NEW.location_id, coalesce(NEW.personnel_id, 0), NEW.status,
      1, (NEW.clicked_at IS NOT NULL)::int, (NEW.status = 'posted')::int, coalesce(n_rating, 0), (n_rating IS NOT NULL)::int);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "amplification_day_counts_amplification" AFTER INSERT OR UPDATE OR DELETE ON "amplifications"
FOR EACH ROW EXECUTE FUNCTION amplification_day_counts_amplification();
--> statement-breakpoint
CREATE FUNCTION "amplification_day_counts_review"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO amplification_day_counts (client_id, site, day, location_id, personnel_id, status, invited, clicked, posted, rating_sum, rated)
  SELECT a.client_id, a.site, (a.invited_at AT TIME ZONE 'UTC')::date, a.location_id, coalesce(a.personnel_id, 0), a.status,
    0, 0, 0, coalesce(NEW.rating, 0) - coalesce(OLD.rating, 0), (NEW.rating IS NOT NULL)::int - (OLD.rating IS NOT NULL)::int
  FROM amplifications a WHERE a.review_id = NEW.id AND a.status = 'posted';
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "amplification_day_counts_review" AFTER UPDATE OF rating ON "reviews"
FOR EACH ROW WHEN (OLD.rating IS DISTINCT FROM NEW.rating) EXECUTE FUNCTION amplification_day_counts_review();
--> statement-breakpoint
-- The rows already there, one folded row per key.
INSERT INTO amplification_day_counts (client_id, site, day, location_id, personnel_id, status, invited, clicked, posted, rating_sum, rated, folded)
SELECT a.client_id, a.site, (a.invited_at AT TIME ZONE 'UTC')::date, a.location_id, coalesce(a.personnel_id, 0), a.status,
  count(*)::int, count(a.clicked_at)::int, count(*) FILTER (WHERE a.status = 'posted')::int,
  coalesce(sum(r.rating) FILTER (WHERE a.status = 'posted'), 0)::int, count(r.rating) FILTER (WHERE a.status = 'posted')::int, true
FROM amplifications a LEFT JOIN reviews r ON r.id = a.review_id
GROUP BY 1, 2, 3, 4, 5, 6;
