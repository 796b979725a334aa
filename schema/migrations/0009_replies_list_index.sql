CREATE INDEX "replies_org_received_idx" ON "replies" USING btree ("org_id","received_at","id");--> statement-breakpoint
-- last_delivery_at now means the last successful delivery; it used to be stamped on every attempt. Where the
-- latest logged attempt failed, take the latest success in the kept history (null when there is none).
UPDATE "webhooks" w SET "last_delivery_at" = (
  SELECT max(a."at") FROM "webhook_attempts" a WHERE a."webhook_id" = w."id" AND a."ok"
) WHERE NOT coalesce((
  SELECT a."ok" FROM "webhook_attempts" a WHERE a."webhook_id" = w."id" ORDER BY a."at" DESC, a."id" DESC LIMIT 1
), true);
