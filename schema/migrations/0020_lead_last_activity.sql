ALTER TABLE "leads" ADD COLUMN "last_activity_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "leads_org_activity_idx" ON "leads" USING btree ("org_id","last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
-- Existing leads: the latest message of their conversation, else their last reply (as the CRM view counted it).
UPDATE "leads" SET "last_activity_at" = coalesce((SELECT max(tm."at") FROM "thread_messages" tm WHERE tm."lead_id" = "leads"."id"), "leads"."last_reply_at");
