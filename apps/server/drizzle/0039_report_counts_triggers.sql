-- The reports' rollup (docs/decisions/065-report-rollups.md): every write to an event the
-- Performance Report counts appends, in the writing transaction, the change it makes to the counts
-- of its key in report_day_counts: the contribution computed with the old row subtracted, the
-- new one's added, each with the other tables as they are (so a change to a joined row, a
-- re-assignment, is one more pair of deltas). The definitions mirror apps/server/src/reports/performance/raw.ts.
-- The day is the client's own calendar day: the client's row is read FOR SHARE, so a time zone
-- change (which rebuilds the client's rows, below) waits for writers in flight and writers wait for it.
CREATE FUNCTION "report_counts_put"(p_client int, p_at timestamptz, p_location text, p_personnel int, p_survey int,
  p_channel text, p_product int, p_referral int, p_site text, m int[]) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE zone text;
BEGIN
  IF p_at IS NULL OR p_client IS NULL OR m = array_fill(0, array[18]) THEN
    RETURN;
  END IF;
  SELECT timezone INTO zone FROM clients WHERE id = p_client FOR SHARE;
  INSERT INTO report_day_counts (client_id, day, location_id, personnel_id, survey_id, channel, product_id, referral_source_id, site,
    sent, delivered, opened, responses, promoters, passives, detractors, score_sum, score_count, csat_positive, csat_answers,
    alerts_fired, alerts_unsent, invites, posted, reviews, rating_sum, rated)
  VALUES (p_client, (p_at AT TIME ZONE zone)::date, coalesce(p_location, ''), coalesce(p_personnel, 0), coalesce(p_survey, 0),
    coalesce(p_channel, ''), coalesce(p_product, 0), coalesce(p_referral, 0), coalesce(p_site, ''),
    m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8], m[9], m[10], m[11], m[12], m[13], m[14], m[15], m[16], m[17], m[18]);
END $$;
--> statement-breakpoint
-- An invitation, on the day first sent (a Send test is none); delivered / opened when any of its
-- survey_invite Tracking Logs rows says so.
CREATE FUNCTION "report_counts_item"(i survey_processing_items, s int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE d boolean; o boolean;
BEGIN
  IF i.id IS NULL OR i.sent_at IS NULL OR i.source = 'manual_test' THEN
    RETURN;
  END IF;
  SELECT coalesce(bool_or(n.status IN ('delivered', 'opened', 'clicked', 'complained')), false), coalesce(bool_or(n.status IN ('opened', 'clicked')), false)
    INTO d, o FROM notification_logs n
    WHERE n.related_type = 'survey_processing_item' AND n.related_id = i.id::text AND n.type = 'survey_invite';
  PERFORM report_counts_put(i.client_id, i.sent_at, i.location_id, i.personnel_id, i.survey_id, i.channel, i.product_id, i.referral_source_id, '',
    array[s, s * d::int, s * o::int, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
END $$;
--> statement-breakpoint
-- A response, on the day submitted, unless excluded or a test; its channel, product and referral source are its invitation's.
CREATE FUNCTION "report_counts_response"(r survey_responses, i survey_processing_items, s int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE t text; csat boolean;
BEGIN
  IF r.id IS NULL OR r.excluded OR r.test THEN
    RETURN;
  END IF;
  SELECT type INTO t FROM surveys WHERE id = r.survey_id;
  csat := coalesce(t IN ('csat', 'star'), false);
  PERFORM report_counts_put(r.client_id, r.submitted_at, r.location_id, r.personnel_id, r.survey_id, i.channel, i.product_id, i.referral_source_id, '',
    array[0, 0, 0, s, s * (r.nps_class IS NOT DISTINCT FROM 'promoter')::int, s * (r.nps_class IS NOT DISTINCT FROM 'passive')::int,
      s * (r.nps_class IS NOT DISTINCT FROM 'detractor')::int, s * coalesce(r.key_score, 0), s * (r.key_score IS NOT NULL)::int,
      s * coalesce(csat AND r.key_score BETWEEN 4 AND 5, false)::int, s * coalesce(csat AND r.key_score BETWEEN 1 AND 5, false)::int,
      0, 0, 0, 0, 0, 0, 0]);
END $$;
--> statement-breakpoint
-- A survey alert event, on the day raised (tests left out), with its response's dimensions, else its invitation's.
CREATE FUNCTION "report_counts_alert"(e survey_alert_events, r survey_responses, i survey_processing_items, s int) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF e.id IS NULL OR e.test THEN
    RETURN;
  END IF;
  PERFORM report_counts_put(e.client_id, e.created_at, coalesce(r.location_id, i.location_id), coalesce(r.personnel_id, i.personnel_id),
    coalesce(r.survey_id, i.survey_id), i.channel, i.product_id, i.referral_source_id, '',
    array[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, s, s * (e.state = 'unsent')::int, 0, 0, 0, 0, 0]);
END $$;
--> statement-breakpoint
-- A review invitation, on the day invited: its own location, personnel and channel, its response's survey, its invitation's product and referral source.
CREATE FUNCTION "report_counts_amplification"(a amplifications, r survey_responses, i survey_processing_items, s int) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF a.id IS NULL OR r.id IS NULL THEN
    RETURN;
  END IF;
  PERFORM report_counts_put(a.client_id, a.invited_at, a.location_id, a.personnel_id, r.survey_id, a.channel, i.product_id, i.referral_source_id, '',
    array[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, s, s * (a.status = 'posted')::int, 0, 0, 0]);
END $$;
--> statement-breakpoint
-- A public review, on the day written, by site; it names no survey, personnel, product, referral source or channel.
CREATE FUNCTION "report_counts_review"(v reviews, s int) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF v.id IS NULL THEN
    RETURN;
  END IF;
  PERFORM report_counts_put(v.client_id, v.review_created_at, v.location_id, NULL, NULL, NULL, NULL, NULL, v.site,
    array[0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, s, s * coalesce(v.rating, 0), s * (v.rating IS NOT NULL)::int]);
END $$;
--> statement-breakpoint
-- The alerts and review invitations hanging off a response, counted with (r, i) as the sign says.
CREATE FUNCTION "report_counts_dependents"(r survey_responses, i survey_processing_items, s int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE e survey_alert_events; a amplifications;
BEGIN
  IF r.id IS NULL THEN
    RETURN;
  END IF;
  FOR e IN SELECT * FROM survey_alert_events WHERE response_id = r.id LOOP
    PERFORM report_counts_alert(e, r, i, s);
  END LOOP;
  FOR a IN SELECT * FROM amplifications WHERE response_id = r.id LOOP
    PERFORM report_counts_amplification(a, r, i, s);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE FUNCTION "report_counts_on_item"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE r survey_responses; e survey_alert_events; none survey_responses;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM report_counts_item(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM report_counts_item(NEW, 1);
  END IF;
  IF TG_OP = 'UPDATE' AND (OLD.channel IS DISTINCT FROM NEW.channel OR OLD.product_id IS DISTINCT FROM NEW.product_id
      OR OLD.referral_source_id IS DISTINCT FROM NEW.referral_source_id OR OLD.location_id IS DISTINCT FROM NEW.location_id
      OR OLD.personnel_id IS DISTINCT FROM NEW.personnel_id OR OLD.survey_id IS DISTINCT FROM NEW.survey_id) THEN
    -- What reads the invitation's columns moves with them: its response, and that response's alerts and review invitations.
    FOR r IN SELECT * FROM survey_responses WHERE processing_item_id = NEW.id LOOP
      PERFORM report_counts_response(r, OLD, -1);
      PERFORM report_counts_response(r, NEW, 1);
      PERFORM report_counts_dependents(r, OLD, -1);
      PERFORM report_counts_dependents(r, NEW, 1);
    END LOOP;
    -- Alerts of the invitation without a response.
    FOR e IN SELECT * FROM survey_alert_events WHERE response_id IS NULL AND processing_item_id = NEW.id LOOP
      PERFORM report_counts_alert(e, none, OLD, -1);
      PERFORM report_counts_alert(e, none, NEW, 1);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_counts_item_insert" AFTER INSERT ON "survey_processing_items"
FOR EACH ROW WHEN (NEW.sent_at IS NOT NULL) EXECUTE FUNCTION report_counts_on_item();
--> statement-breakpoint
CREATE TRIGGER "report_counts_item_update" AFTER UPDATE ON "survey_processing_items"
FOR EACH ROW WHEN (OLD.sent_at IS DISTINCT FROM NEW.sent_at OR OLD.source IS DISTINCT FROM NEW.source OR OLD.client_id IS DISTINCT FROM NEW.client_id
  OR OLD.location_id IS DISTINCT FROM NEW.location_id OR OLD.personnel_id IS DISTINCT FROM NEW.personnel_id OR OLD.survey_id IS DISTINCT FROM NEW.survey_id
  OR OLD.channel IS DISTINCT FROM NEW.channel OR OLD.product_id IS DISTINCT FROM NEW.product_id OR OLD.referral_source_id IS DISTINCT FROM NEW.referral_source_id)
EXECUTE FUNCTION report_counts_on_item();
--> statement-breakpoint
CREATE TRIGGER "report_counts_item_delete" AFTER DELETE ON "survey_processing_items"
FOR EACH ROW WHEN (OLD.sent_at IS NOT NULL) EXECUTE FUNCTION report_counts_on_item();
--> statement-breakpoint
CREATE FUNCTION "report_counts_on_response"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE i survey_processing_items;
BEGIN
  IF TG_OP <> 'INSERT' THEN
    SELECT * INTO i FROM survey_processing_items WHERE id = OLD.processing_item_id;
    PERFORM report_counts_response(OLD, i, -1);
    IF TG_OP = 'UPDATE' THEN
      PERFORM report_counts_dependents(OLD, i, -1);
    END IF;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    SELECT * INTO i FROM survey_processing_items WHERE id = NEW.processing_item_id;
    PERFORM report_counts_response(NEW, i, 1);
    IF TG_OP = 'UPDATE' THEN
      PERFORM report_counts_dependents(NEW, i, 1);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_counts_response_insert" AFTER INSERT ON "survey_responses"
FOR EACH ROW EXECUTE FUNCTION report_counts_on_response();
--> statement-breakpoint
CREATE TRIGGER "report_counts_response_update" AFTER UPDATE ON "survey_responses"
FOR EACH ROW WHEN (OLD.excluded IS DISTINCT FROM NEW.excluded OR OLD.test IS DISTINCT FROM NEW.test OR OLD.client_id IS DISTINCT FROM NEW.client_id
  OR OLD.location_id IS DISTINCT FROM NEW.location_id OR OLD.personnel_id IS DISTINCT FROM NEW.personnel_id OR OLD.survey_id IS DISTINCT FROM NEW.survey_id
  OR OLD.submitted_at IS DISTINCT FROM NEW.submitted_at OR OLD.key_score IS DISTINCT FROM NEW.key_score OR OLD.nps_class IS DISTINCT FROM NEW.nps_class
  OR OLD.processing_item_id IS DISTINCT FROM NEW.processing_item_id)
EXECUTE FUNCTION report_counts_on_response();
--> statement-breakpoint
CREATE TRIGGER "report_counts_response_delete" AFTER DELETE ON "survey_responses"
FOR EACH ROW EXECUTE FUNCTION report_counts_on_response();
--> statement-breakpoint
-- A survey_invite Tracking Logs row whose status moves: its invitation's delivered / opened may change.
-- The invitation is read FOR SHARE, so the send engine's write of its sent_at and this change see each other.
CREATE FUNCTION "report_counts_on_invite_log"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE rel text; lid bigint; i survey_processing_items; other_d boolean; other_o boolean;
  d_old boolean := false; d_new boolean := false; o_old boolean := false; o_new boolean := false;
BEGIN
  IF TG_OP = 'DELETE' THEN rel := OLD.related_id; lid := OLD.id; ELSE rel := NEW.related_id; lid := NEW.id; END IF;
  IF rel IS NULL OR rel !~ '^[0-9]{1,9}$' THEN
    RETURN NULL;
  END IF;
  SELECT * INTO i FROM survey_processing_items WHERE id = rel::int FOR SHARE;
  IF NOT FOUND OR i.sent_at IS NULL OR i.source = 'manual_test' THEN
    RETURN NULL;
  END IF;
  SELECT coalesce(bool_or(n.status IN ('delivered', 'opened', 'clicked', 'complained')), false), coalesce(bool_or(n.status IN ('opened', 'clicked')), false)
    INTO other_d, other_o FROM notification_logs n
    WHERE n.related_type = 'survey_processing_item' AND n.related_id = rel AND n.type = 'survey_invite' AND n.id <> lid;
  IF TG_OP <> 'INSERT' THEN
    d_old := OLD.status IN ('delivered', 'opened', 'clicked', 'complained');
    o_old := OLD.status IN ('opened', 'clicked');
  END IF;
  IF TG_OP <> 'DELETE' THEN
    d_new := NEW.status IN ('delivered', 'opened', 'clicked', 'complained');
    o_new := NEW.status IN ('opened', 'clicked');
  END IF;
  d_old := d_old OR other_d; d_new := d_new OR other_d; o_old := o_old OR other_o; o_new := o_new OR other_o;
  PERFORM report_counts_put(i.client_id, i.sent_at, i.location_id, i.personnel_id, i.survey_id, i.channel, i.product_id, i.referral_source_id, '',
    array[0, d_new::int - d_old::int, o_new::int - o_old::int, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_counts_invite_log_insert" AFTER INSERT ON "notification_logs"
FOR EACH ROW WHEN (NEW.type = 'survey_invite' AND NEW.related_type = 'survey_processing_item'
  AND NEW.status IN ('delivered', 'opened', 'clicked', 'complained')) EXECUTE FUNCTION report_counts_on_invite_log();
--> statement-breakpoint
CREATE TRIGGER "report_counts_invite_log_update" AFTER UPDATE OF status ON "notification_logs"
FOR EACH ROW WHEN (NEW.type = 'survey_invite' AND NEW.related_type = 'survey_processing_item' AND OLD.status IS DISTINCT FROM NEW.status)
EXECUTE FUNCTION report_counts_on_invite_log();
--> statement-breakpoint
CREATE TRIGGER "report_counts_invite_log_delete" AFTER DELETE ON "notification_logs"
FOR EACH ROW WHEN (OLD.type = 'survey_invite' AND OLD.related_type = 'survey_processing_item'
  AND OLD.status IN ('delivered', 'opened', 'clicked', 'complained')) EXECUTE FUNCTION report_counts_on_invite_log();
--> statement-breakpoint
CREATE FUNCTION "report_counts_alert_of"(e survey_alert_events, s int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE r survey_responses; i survey_processing_items;
BEGIN
  IF e.id IS NULL OR e.test THEN
    RETURN;
  END IF;
  IF e.response_id IS NOT NULL THEN
    SELECT * INTO r FROM survey_responses WHERE id = e.response_id;
  END IF;
  SELECT * INTO i FROM survey_processing_items WHERE id = coalesce(r.processing_item_id, e.processing_item_id);
  PERFORM report_counts_alert(e, r, i, s);
END $$;
--> statement-breakpoint
CREATE FUNCTION "report_counts_on_alert"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM report_counts_alert_of(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM report_counts_alert_of(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_counts_alert_insert" AFTER INSERT ON "survey_alert_events"
FOR EACH ROW WHEN (NOT NEW.test) EXECUTE FUNCTION report_counts_on_alert();
--> statement-breakpoint
CREATE TRIGGER "report_counts_alert_update" AFTER UPDATE ON "survey_alert_events"
FOR EACH ROW WHEN ((OLD.state = 'unsent') IS DISTINCT FROM (NEW.state = 'unsent') OR OLD.test IS DISTINCT FROM NEW.test
  OR OLD.created_at IS DISTINCT FROM NEW.created_at OR OLD.client_id IS DISTINCT FROM NEW.client_id
  OR OLD.response_id IS DISTINCT FROM NEW.response_id OR OLD.processing_item_id IS DISTINCT FROM NEW.processing_item_id)
EXECUTE FUNCTION report_counts_on_alert();
--> statement-breakpoint
CREATE TRIGGER "report_counts_alert_delete" AFTER DELETE ON "survey_alert_events"
FOR EACH ROW WHEN (NOT OLD.test) EXECUTE FUNCTION report_counts_on_alert();
--> statement-breakpoint
CREATE FUNCTION "report_counts_amplification_of"(a amplifications, s int) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE r survey_responses; i survey_processing_items;
BEGIN
  SELECT * INTO r FROM survey_responses WHERE id = a.response_id;
  SELECT * INTO i FROM survey_processing_items WHERE id = r.processing_item_id;
  PERFORM report_counts_amplification(a, r, i, s);
END $$;
--> statement-breakpoint
CREATE FUNCTION "report_counts_on_amplification"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM report_counts_amplification_of(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM report_counts_amplification_of(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_counts_amplification_insert" AFTER INSERT ON "amplifications"
FOR EACH ROW EXECUTE FUNCTION report_counts_on_amplification();
--> statement-breakpoint
CREATE TRIGGER "report_counts_amplification_update" AFTER UPDATE ON "amplifications"
FOR EACH ROW WHEN ((OLD.status = 'posted') IS DISTINCT FROM (NEW.status = 'posted') OR OLD.client_id IS DISTINCT FROM NEW.client_id
  OR OLD.location_id IS DISTINCT FROM NEW.location_id OR OLD.personnel_id IS DISTINCT FROM NEW.personnel_id OR OLD.channel IS DISTINCT FROM NEW.channel
  OR OLD.invited_at IS DISTINCT FROM NEW.invited_at OR OLD.response_id IS DISTINCT FROM NEW.response_id)
EXECUTE FUNCTION report_counts_on_amplification();
--> statement-breakpoint
CREATE TRIGGER "report_counts_amplification_delete" AFTER DELETE ON "amplifications"
FOR EACH ROW EXECUTE FUNCTION report_counts_on_amplification();
--> statement-breakpoint
CREATE FUNCTION "report_counts_on_review"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP <> 'INSERT' THEN
    PERFORM report_counts_review(OLD, -1);
  END IF;
  IF TG_OP <> 'DELETE' THEN
    PERFORM report_counts_review(NEW, 1);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_counts_review_insert" AFTER INSERT ON "reviews"
FOR EACH ROW EXECUTE FUNCTION report_counts_on_review();
--> statement-breakpoint
CREATE TRIGGER "report_counts_review_update" AFTER UPDATE ON "reviews"
FOR EACH ROW WHEN (OLD.client_id IS DISTINCT FROM NEW.client_id OR OLD.location_id IS DISTINCT FROM NEW.location_id OR OLD.site IS DISTINCT FROM NEW.site
  OR OLD.review_created_at IS DISTINCT FROM NEW.review_created_at OR OLD.rating IS DISTINCT FROM NEW.rating)
EXECUTE FUNCTION report_counts_on_review();
--> statement-breakpoint
CREATE TRIGGER "report_counts_review_delete" AFTER DELETE ON "reviews"
FOR EACH ROW EXECUTE FUNCTION report_counts_on_review();
--> statement-breakpoint
-- Rebuilds the rollup of one client (or all: null) over a range of its days (null: unbounded), from
-- the raw tables, one folded row per key. The clients' rows are locked FOR UPDATE first, so writers
-- of those clients (report_counts_put reads the client FOR SHARE) wait, and writers in flight finish
-- before: nothing is counted twice or lost while the range is rewritten.
CREATE FUNCTION "report_counts_rebuild"(p_client int, p_from date, p_to date) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE lo date := coalesce(p_from, '-infinity'::date); hi date := coalesce(p_to, 'infinity'::date);
BEGIN
  PERFORM 1 FROM clients WHERE p_client IS NULL OR id = p_client ORDER BY id FOR UPDATE;
  DELETE FROM report_day_counts WHERE (p_client IS NULL OR client_id = p_client) AND day BETWEEN lo AND hi;
  INSERT INTO report_day_counts (client_id, day, location_id, personnel_id, survey_id, channel, product_id, referral_source_id, site,
    sent, delivered, opened, responses, promoters, passives, detractors, score_sum, score_count, csat_positive, csat_answers,
    alerts_fired, alerts_unsent, invites, posted, reviews, rating_sum, rated, folded)
  SELECT client_id, day, coalesce(location_id, ''), coalesce(personnel_id, 0), coalesce(survey_id, 0), coalesce(channel, ''),
    coalesce(product_id, 0), coalesce(referral_source_id, 0), coalesce(site, ''),
    sum(sent), sum(delivered), sum(opened), sum(responses), sum(promoters), sum(passives), sum(detractors), sum(score_sum), sum(score_count),
    sum(csat_positive), sum(csat_answers), sum(alerts_fired), sum(alerts_unsent), sum(invites), sum(posted), sum(reviews), sum(rating_sum), sum(rated), true
  FROM (
    SELECT i.client_id, (i.sent_at AT TIME ZONE c.timezone)::date AS day, i.location_id, i.personnel_id, i.survey_id, i.channel,
      i.product_id, i.referral_source_id, NULL::text AS site,
      1 AS sent,
      (EXISTS (SELECT 1 FROM notification_logs n WHERE n.related_type = 'survey_processing_item' AND n.related_id = i.id::text
        AND n.type = 'survey_invite' AND n.status IN ('delivered', 'opened', 'clicked', 'complained')))::int AS delivered,
      (EXISTS (SELECT 1 FROM notification_logs n WHERE n.related_type = 'survey_processing_item' AND n.related_id = i.id::text
        AND n.type = 'survey_invite' AND n.status IN ('opened', 'clicked')))::int AS opened,
      0 AS responses, 0 AS promoters, 0 AS passives, 0 AS detractors, 0 AS score_sum, 0 AS score_count, 0 AS csat_positive, 0 AS csat_answers,
      0 AS alerts_fired, 0 AS alerts_unsent, 0 AS invites, 0 AS posted, 0 AS reviews, 0 AS rating_sum, 0 AS rated
    FROM survey_processing_items i JOIN clients c ON c.id = i.client_id
    WHERE i.sent_at IS NOT NULL AND i.source <> 'manual_test' AND (p_client IS NULL OR i.client_id = p_client)
      AND (i.sent_at AT TIME ZONE c.timezone)::date BETWEEN lo AND hi
    UNION ALL
    SELECT r.client_id, (r.submitted_at AT TIME ZONE c.timezone)::date, r.location_id, r.personnel_id, r.survey_id, i.channel,
      i.product_id, i.referral_source_id, NULL, 0, 0, 0, 1,
      (r.nps_class IS NOT DISTINCT FROM 'promoter')::int, (r.nps_class IS NOT DISTINCT FROM 'passive')::int, (r.nps_class IS NOT DISTINCT FROM 'detractor')::int,
      coalesce(r.key_score, 0), (r.key_score IS NOT NULL)::int,
      coalesce(s.type IN ('csat', 'star') AND r.key_score BETWEEN 4 AND 5, false)::int, coalesce(s.type IN ('csat', 'star') AND r.key_score BETWEEN 1 AND 5, false)::int,
      0, 0, 0, 0, 0, 0, 0
    FROM survey_responses r JOIN survey_processing_items i ON i.id = r.processing_item_id JOIN surveys s ON s.id = r.survey_id
      JOIN clients c ON c.id = r.client_id
    WHERE NOT r.excluded AND NOT r.test AND (p_client IS NULL OR r.client_id = p_client)
      AND (r.submitted_at AT TIME ZONE c.timezone)::date BETWEEN lo AND hi
    UNION ALL
    SELECT e.client_id, (e.created_at AT TIME ZONE c.timezone)::date, coalesce(r.location_id, i.location_id), coalesce(r.personnel_id, i.personnel_id),
      coalesce(r.survey_id, i.survey_id), i.channel, i.product_id, i.referral_source_id, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
      1, (e.state = 'unsent')::int, 0, 0, 0, 0, 0
    FROM survey_alert_events e LEFT JOIN survey_responses r ON r.id = e.response_id
      LEFT JOIN survey_processing_items i ON i.id = coalesce(r.processing_item_id, e.processing_item_id) JOIN clients c ON c.id = e.client_id
    WHERE NOT e.test AND (p_client IS NULL OR e.client_id = p_client) AND (e.created_at AT TIME ZONE c.timezone)::date BETWEEN lo AND hi
    UNION ALL
    SELECT a.client_id, (a.invited_at AT TIME ZONE c.timezone)::date, a.location_id, a.personnel_id, r.survey_id, a.channel,
      i.product_id, i.referral_source_id, NULL, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, (a.status = 'posted')::int, 0, 0, 0
    FROM amplifications a JOIN survey_responses r ON r.id = a.response_id JOIN survey_processing_items i ON i.id = r.processing_item_id
      JOIN clients c ON c.id = a.client_id
    WHERE (p_client IS NULL OR a.client_id = p_client) AND (a.invited_at AT TIME ZONE c.timezone)::date BETWEEN lo AND hi
    UNION ALL
    SELECT v.client_id, (v.review_created_at AT TIME ZONE c.timezone)::date, v.location_id, NULL, NULL, NULL, NULL, NULL, v.site,
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, coalesce(v.rating, 0), (v.rating IS NOT NULL)::int
    FROM reviews v JOIN clients c ON c.id = v.client_id
    WHERE (p_client IS NULL OR v.client_id = p_client) AND (v.review_created_at AT TIME ZONE c.timezone)::date BETWEEN lo AND hi
  ) t
  GROUP BY client_id, day, coalesce(location_id, ''), coalesce(personnel_id, 0), coalesce(survey_id, 0), coalesce(channel, ''),
    coalesce(product_id, 0), coalesce(referral_source_id, 0), coalesce(site, '');
END $$;
--> statement-breakpoint
-- A client's days are its zone's: a new zone moves every event of the client to another day, so its rows are rebuilt.
CREATE FUNCTION "report_counts_on_client_zone"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM report_counts_rebuild(NEW.id, NULL, NULL);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "report_counts_client_zone" AFTER UPDATE OF timezone ON "clients"
FOR EACH ROW WHEN (OLD.timezone IS DISTINCT FROM NEW.timezone) EXECUTE FUNCTION report_counts_on_client_zone();
--> statement-breakpoint
-- The rows already there.
SELECT report_counts_rebuild(NULL, NULL, NULL);
