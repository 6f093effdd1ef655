DROP INDEX "notification_logs_provider_message_idx";--> statement-breakpoint
CREATE INDEX "notification_logs_provider_message_id_idx" ON "notification_logs" USING btree ("provider_message_id","id");