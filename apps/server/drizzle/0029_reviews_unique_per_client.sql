DROP INDEX "reviews_site_external_uq";--> statement-breakpoint
CREATE UNIQUE INDEX "reviews_client_site_external_uq" ON "reviews" USING btree ("client_id","site","external_id");