CREATE TABLE "personnel_match_keys" (
	"client_id" integer NOT NULL,
	"reason" text NOT NULL,
	"key" text NOT NULL,
	"n" integer NOT NULL,
	CONSTRAINT "personnel_match_keys_client_id_reason_key_pk" PRIMARY KEY("client_id","reason","key")
);
--> statement-breakpoint
ALTER TABLE "personnel" ADD COLUMN "name_key" text GENERATED ALWAYS AS (regexp_replace(lower(first_name || last_name), '[^a-z]', '', 'g')) STORED;--> statement-breakpoint
ALTER TABLE "personnel" ADD COLUMN "email_key" text GENERATED ALWAYS AS (lower(email)) STORED;--> statement-breakpoint
ALTER TABLE "personnel" ADD COLUMN "phone_key" text GENERATED ALWAYS AS (right(regexp_replace(phone, '[^0-9]', '', 'g'), 10)) STORED;--> statement-breakpoint
ALTER TABLE "personnel" ADD COLUMN "code_key" text GENERATED ALWAYS AS (regexp_replace(lower(employee_code), '[^a-z0-9]', '', 'g')) STORED;--> statement-breakpoint
ALTER TABLE "personnel_match_keys" ADD CONSTRAINT "personnel_match_keys_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "personnel_match_keys_shared_idx" ON "personnel_match_keys" USING btree ("client_id","reason") WHERE "personnel_match_keys"."n" >= 2;--> statement-breakpoint
CREATE INDEX "personnel_client_name_key_idx" ON "personnel" USING btree ("client_id","name_key") WHERE "personnel"."merged_into_id" is null and "personnel"."name_key" <> '';--> statement-breakpoint
CREATE INDEX "personnel_client_email_key_idx" ON "personnel" USING btree ("client_id","email_key") WHERE "personnel"."merged_into_id" is null and "personnel"."email_key" <> '';--> statement-breakpoint
CREATE INDEX "personnel_client_phone_key_idx" ON "personnel" USING btree ("client_id","phone_key") WHERE "personnel"."merged_into_id" is null and "personnel"."phone_key" <> '';--> statement-breakpoint
CREATE INDEX "personnel_client_code_key_idx" ON "personnel" USING btree ("client_id","code_key") WHERE "personnel"."merged_into_id" is null and "personnel"."code_key" <> '';--> statement-breakpoint
-- Merge Personnel Data's shared match keys (docs/decisions/074-merge-match-keys.md): every statement
-- that writes personnel adds its new rows' keys to personnel_match_keys and takes its old rows'
-- away, people merged into someone else (merged_into_id set) counting for nothing, in the writing
-- transaction, whoever writes (the console, CSV import, data feeds, the demo seed). Keys are
-- upserted in (client, reason, key) order, so two writers sharing keys queue rather than
-- deadlock within a statement. The statement is built per operation because a trigger sees
-- only the transition tables it declares.
CREATE FUNCTION "personnel_match_keys_count"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE changed text;
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    DELETE FROM personnel_match_keys;
    RETURN NULL;
  END IF;
  changed := CASE TG_OP
    WHEN 'INSERT' THEN 'SELECT client_id, merged_into_id, name_key, email_key, phone_key, code_key, 1 AS s FROM new_rows'
    WHEN 'DELETE' THEN 'SELECT client_id, merged_into_id, name_key, email_key, phone_key, code_key, -1 AS s FROM old_rows'
    ELSE 'SELECT client_id, merged_into_id, name_key, email_key, phone_key, code_key, 1 AS s FROM new_rows
      UNION ALL SELECT client_id, merged_into_id, name_key, email_key, phone_key, code_key, -1 FROM old_rows'
  END;
  EXECUTE $q$
    INSERT INTO personnel_match_keys AS m (client_id, reason, key, n)
    SELECT p.client_id, k.reason, k.key, sum(p.s)
    FROM ($q$ || changed || $q$) p
    CROSS JOIN LATERAL (VALUES ('name', p.name_key), ('email', p.email_key), ('phone', p.phone_key), ('code', p.code_key)) AS k (reason, key)
    WHERE p.merged_into_id IS NULL AND k.key <> ''
    GROUP BY 1, 2, 3 HAVING sum(p.s) <> 0
    ORDER BY 1, 2, 3
    ON CONFLICT (client_id, reason, key) DO UPDATE SET n = m.n + excluded.n$q$;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER "personnel_match_keys_on_insert" AFTER INSERT ON "personnel"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION personnel_match_keys_count();
--> statement-breakpoint
CREATE TRIGGER "personnel_match_keys_on_update" AFTER UPDATE ON "personnel"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION personnel_match_keys_count();
--> statement-breakpoint
CREATE TRIGGER "personnel_match_keys_on_delete" AFTER DELETE ON "personnel"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION personnel_match_keys_count();
--> statement-breakpoint
CREATE TRIGGER "personnel_match_keys_on_truncate" AFTER TRUNCATE ON "personnel"
  FOR EACH STATEMENT EXECUTE FUNCTION personnel_match_keys_count();
--> statement-breakpoint
-- The people already there.
INSERT INTO personnel_match_keys (client_id, reason, key, n)
SELECT p.client_id, k.reason, k.key, count(*)
FROM personnel p
CROSS JOIN LATERAL (VALUES ('name', p.name_key), ('email', p.email_key), ('phone', p.phone_key), ('code', p.code_key)) AS k (reason, key)
WHERE p.merged_into_id IS NULL AND k.key <> ''
GROUP BY 1, 2, 3;
