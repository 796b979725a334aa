CREATE TABLE "inbound_messages" (
	"source_id" uuid NOT NULL,
	"message_id" text NOT NULL,
	"org_id" uuid NOT NULL,
	"reply_id" uuid,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "inbound_messages_source_id_message_id_pk" PRIMARY KEY("source_id","message_id")
);
--> statement-breakpoint
CREATE TABLE "inbound_sources" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"provider" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"secret_hint" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"last_received_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "suppressions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid,
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"reason" text NOT NULL,
	"reply_id" uuid,
	"lead_id" uuid,
	"detail" text,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "provider" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "provider_campaign_id" text;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "body_html" text;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "source_id" uuid;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "to_email" text;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "rfc_message_id" text;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "in_reply_to" text;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "references" text;--> statement-breakpoint
ALTER TABLE "replies" ADD COLUMN "provider_ref" jsonb;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_source_id_inbound_sources_id_fk" FOREIGN KEY ("source_id") REFERENCES "public"."inbound_sources"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_sources" ADD CONSTRAINT "inbound_sources_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "suppressions" ADD CONSTRAINT "suppressions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inbound_sources_org_idx" ON "inbound_sources" USING btree ("org_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "suppressions_scope_value_uq" ON "suppressions" USING btree ("org_id",coalesce("client_id", '00000000-0000-0000-0000-000000000000'::uuid),"kind","value");--> statement-breakpoint
CREATE INDEX "suppressions_org_value_idx" ON "suppressions" USING btree ("org_id","value");--> statement-breakpoint
CREATE UNIQUE INDEX "campaigns_org_provider_campaign_uq" ON "campaigns" USING btree ("org_id","provider","provider_campaign_id") WHERE "campaigns"."provider_campaign_id" is not null;--> statement-breakpoint
CREATE INDEX "leads_org_email_idx" ON "leads" USING btree ("org_id","email");