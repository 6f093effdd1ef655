-- The daily cap's count per location and day reads only the batch's locations' live invitations,
-- from the index alone (pipeline/admit-lookups.ts).
CREATE INDEX "survey_processing_items_location_live_idx" ON "survey_processing_items" USING btree ("location_id","scheduled_at") WHERE status in ('scheduled', 'sent', 'delivered', 'opened', 'responded', 'reminded');