ALTER TABLE "webhook_attempts" ADD COLUMN "trigger" text DEFAULT 'automatic' NOT NULL;--> statement-breakpoint
ALTER TABLE "webhooks" ADD COLUMN "client_id" uuid;--> statement-breakpoint
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE "webhook_deliveries"."status" = 'pending';