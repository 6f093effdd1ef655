CREATE TABLE "review_day_counts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"client_id" integer NOT NULL,
	"site" text NOT NULL,
	"day" date NOT NULL,
	"location_id" text NOT NULL,
	"reviews" integer NOT NULL,
	"folded" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE INDEX "review_day_counts_client_site_day_idx" ON "review_day_counts" USING btree ("client_id","site","day");--> statement-breakpoint
CREATE UNIQUE INDEX "review_day_counts_folded_uq" ON "review_day_counts" USING btree ("client_id","site","day","location_id") WHERE "review_day_counts"."folded";--> statement-breakpoint
CREATE INDEX "review_day_counts_unfolded_idx" ON "review_day_counts" USING btree ("id") WHERE not "review_day_counts"."folded";--> statement-breakpoint
-- The New reviews card's summary (docs/decisions/053): each write of a review appends the change
-- it makes to its key's count, in the writing transaction.
CREATE FUNCTION "review_day_counts_review"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND OLD.client_id = NEW.client_id AND OLD.site = NEW.site AND OLD.location_id = NEW.location_id
    AND (OLD.review_created_at AT TIME ZONE 'UTC')::date = (NEW.review_created_at AT TIME ZONE 'UTC')::date THEN
    RETURN NULL;
  END IF;
  IF TG_OP <> 'INSERT' THEN
    INSERT INTO review_day_counts (client_id, site, day, location_id, reviews)
    VALUES (OLD.client_id, OLD.site, (OLD.review_created_at AT TIME ZONE 'UTC')::date, OLD.location_id, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    INSERT INTO review_day_counts (client_id, site, day, location_id, reviews)
    VALUES (NEW.client_id, NEW.site, (NEW.review_created_at AT TIME ZONE 'UTC')::date, NEW.location_id, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "review_day_counts_review" AFTER INSERT OR DELETE OR UPDATE OF client_id, site, location_id, review_created_at ON "reviews"
FOR EACH ROW EXECUTE FUNCTION review_day_counts_review();
--> statement-breakpoint
-- The reviews already there, one folded row per key.
INSERT INTO review_day_counts (client_id, site, day, location_id, reviews, folded)
SELECT client_id, site, (review_created_at AT TIME ZONE 'UTC')::date, location_id, count(*)::int, true
FROM reviews GROUP BY 1, 2, 3, 4;
