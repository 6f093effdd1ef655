-- The shared keys with their key and count in the index, so Merge Personnel Data's suggestions read
-- them by an index-only scan (docs/decisions/074-merge-match-keys.md).
DROP INDEX "personnel_match_keys_shared_idx";--> statement-breakpoint
CREATE INDEX "personnel_match_keys_shared_key_idx" ON "personnel_match_keys" USING btree ("client_id","reason","key","n") WHERE "personnel_match_keys"."n" >= 2;