CREATE TABLE "domain_rules" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"stems" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pattern" text,
	"tlds" jsonb DEFAULT '["com"]'::jsonb NOT NULL,
	"max_price_cents" integer DEFAULT 1500 NOT NULL,
	"mailboxes_per_domain" integer DEFAULT 3 NOT NULL,
	"daily_cap" integer DEFAULT 30 NOT NULL,
	"redirect_to" text,
	"sender_names" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"workspace_id" text,
	"workspace_name" text,
	"updated_by" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "domains" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'ordered' NOT NULL,
	"price_cents" integer NOT NULL,
	"order_ref" text NOT NULL,
	"registrar_order_id" text,
	"listed" boolean DEFAULT false NOT NULL,
	"redirect_to" text,
	"bought_at" timestamp with time zone,
	"dns_ready_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "infra_snapshots" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"taken_at" timestamp with time zone NOT NULL,
	"body" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "mailbox_campaigns" (
	"mailbox_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"attached_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "mailbox_campaigns_mailbox_id_campaign_id_pk" PRIMARY KEY("mailbox_id","campaign_id")
);
--> statement-breakpoint
CREATE TABLE "mailbox_health_days" (
	"mailbox_id" uuid NOT NULL,
	"day" date NOT NULL,
	"org_id" uuid NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"bounced" integer DEFAULT 0 NOT NULL,
	"connected" boolean DEFAULT true NOT NULL,
	"domain_listed" boolean DEFAULT false NOT NULL,
	CONSTRAINT "mailbox_health_days_mailbox_id_day_pk" PRIMARY KEY("mailbox_id","day")
);
--> statement-breakpoint
CREATE TABLE "mailboxes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"domain_id" uuid NOT NULL,
	"address" text NOT NULL,
	"display_name" text NOT NULL,
	"workspace_id" text NOT NULL,
	"provider_id" text NOT NULL,
	"credential_enc" text,
	"created_by_step" text NOT NULL,
	"status" text DEFAULT 'warming' NOT NULL,
	"status_since" date NOT NULL,
	"ramp_start_cap" integer DEFAULT 10 NOT NULL,
	"daily_cap" integer DEFAULT 0 NOT NULL,
	"park_reason" text,
	"parked_at" timestamp with time zone,
	"replaced_mailbox_id" uuid,
	"connected" boolean DEFAULT true NOT NULL,
	"bounce_rate_7d" real DEFAULT 0 NOT NULL,
	"last_tick_day" date,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_dns_records" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"domain" text NOT NULL,
	"type" text NOT NULL,
	"name" text NOT NULL,
	"content" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_health_overrides" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"target" text NOT NULL,
	"bounce_rate" real,
	"listed" boolean,
	"disconnected" boolean,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_mailboxes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"workspace_id" text NOT NULL,
	"address" text NOT NULL,
	"display_name" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_orders" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"domain" text NOT NULL,
	"price_cents" integer NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "domain_rules" ADD CONSTRAINT "domain_rules_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domain_rules" ADD CONSTRAINT "domain_rules_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "domains" ADD CONSTRAINT "domains_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "infra_snapshots" ADD CONSTRAINT "infra_snapshots_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "infra_snapshots" ADD CONSTRAINT "infra_snapshots_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_campaigns" ADD CONSTRAINT "mailbox_campaigns_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_campaigns" ADD CONSTRAINT "mailbox_campaigns_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_campaigns" ADD CONSTRAINT "mailbox_campaigns_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailbox_health_days" ADD CONSTRAINT "mailbox_health_days_mailbox_id_mailboxes_id_fk" FOREIGN KEY ("mailbox_id") REFERENCES "public"."mailboxes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "mailboxes" ADD CONSTRAINT "mailboxes_domain_id_domains_id_fk" FOREIGN KEY ("domain_id") REFERENCES "public"."domains"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_dns_records" ADD CONSTRAINT "sim_dns_records_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_health_overrides" ADD CONSTRAINT "sim_health_overrides_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_mailboxes" ADD CONSTRAINT "sim_mailboxes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_orders" ADD CONSTRAINT "sim_orders_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "domains_org_name_uq" ON "domains" USING btree ("org_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "domains_order_ref_uq" ON "domains" USING btree ("org_id","order_ref");--> statement-breakpoint
CREATE INDEX "domains_client_idx" ON "domains" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "mailbox_campaigns_campaign_idx" ON "mailbox_campaigns" USING btree ("campaign_id");--> statement-breakpoint
CREATE UNIQUE INDEX "mailboxes_address_uq" ON "mailboxes" USING btree ("org_id","address");--> statement-breakpoint
CREATE INDEX "mailboxes_client_status_idx" ON "mailboxes" USING btree ("client_id","status");--> statement-breakpoint
CREATE INDEX "mailboxes_org_idx" ON "mailboxes" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "mailboxes_domain_idx" ON "mailboxes" USING btree ("domain_id");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_dns_records_uq" ON "sim_dns_records" USING btree ("org_id","domain","type","name");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_health_overrides_uq" ON "sim_health_overrides" USING btree ("org_id","target");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_mailboxes_address_uq" ON "sim_mailboxes" USING btree ("org_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_orders_ref_uq" ON "sim_orders" USING btree ("org_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_orders_domain_uq" ON "sim_orders" USING btree ("domain");