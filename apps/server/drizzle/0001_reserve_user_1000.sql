-- User id 1000 is the reserved "Default for New User" entry; real users start at 1001.
ALTER SEQUENCE "users_id_seq" RESTART WITH 1001;
--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_id_not_reserved" CHECK ("id" <> 1000);
