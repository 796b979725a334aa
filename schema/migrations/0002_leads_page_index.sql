DROP INDEX "leads_org_last_reply_idx";--> statement-breakpoint
CREATE INDEX "leads_org_last_reply_id_idx" ON "leads" USING btree ("org_id","last_reply_at","id");