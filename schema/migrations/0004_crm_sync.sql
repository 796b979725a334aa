ALTER TABLE "followups" ADD COLUMN "next_attempt_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "leads_org_id_idx" ON "leads" USING btree ("org_id","id");--> statement-breakpoint
CREATE INDEX "leads_org_updated_idx" ON "leads" USING btree ("org_id","updated_at");--> statement-breakpoint
CREATE INDEX "followups_planned_next_idx" ON "followups" USING btree ("next_attempt_at") WHERE "followups"."status" = 'planned';