CREATE TABLE "batch_leads" (
	"batch_id" uuid NOT NULL,
	"pool_lead_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"position" integer NOT NULL,
	"review" text DEFAULT 'pending' NOT NULL,
	"mails" jsonb,
	"rules_used" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"written_at" timestamp with time zone,
	"writes" integer DEFAULT 0 NOT NULL,
	"reviewed_by" text,
	"reviewed_at" timestamp with time zone,
	"reject_reason" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "batch_leads_batch_id_pool_lead_id_pk" PRIMARY KEY("batch_id","pool_lead_id")
);
--> statement-breakpoint
CREATE TABLE "batch_writes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"kind" text NOT NULL,
	"leads" integer NOT NULL,
	"credits" integer NOT NULL,
	"confirmed_by" text NOT NULL,
	"plan_step_id" uuid,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"status" text DEFAULT 'allocated' NOT NULL,
	"segment_id" uuid,
	"filter" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"size" integer NOT NULL,
	"sequence_version" integer,
	"revision" integer DEFAULT 1 NOT NULL,
	"approved_by" text,
	"approved_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "learned_rules" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"key" text NOT NULL,
	"kind" text NOT NULL,
	"rule" text NOT NULL,
	"evidence" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"status" text DEFAULT 'suggested' NOT NULL,
	"activated_by" text,
	"activated_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_edits" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"pool_lead_id" uuid NOT NULL,
	"step" integer NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"by" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "studio_campaign_leads" (
	"studio_campaign_id" uuid NOT NULL,
	"pool_lead_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"email" text NOT NULL,
	"outcome" text NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "studio_campaign_leads_studio_campaign_id_pool_lead_id_pk" PRIMARY KEY("studio_campaign_id","pool_lead_id")
);
--> statement-breakpoint
CREATE TABLE "studio_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"name" text NOT NULL,
	"status" text DEFAULT 'proposed' NOT NULL,
	"plan_step_id" uuid,
	"campaign_id" uuid,
	"sequencer" text NOT NULL,
	"provider_campaign_id" text,
	"mailboxes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"pushed" integer DEFAULT 0 NOT NULL,
	"skipped_never_mail" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"pushed_at" timestamp with time zone,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "batch_leads" ADD CONSTRAINT "batch_leads_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_leads" ADD CONSTRAINT "batch_leads_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_writes" ADD CONSTRAINT "batch_writes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batch_writes" ADD CONSTRAINT "batch_writes_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "batches" ADD CONSTRAINT "batches_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learned_rules" ADD CONSTRAINT "learned_rules_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "learned_rules" ADD CONSTRAINT "learned_rules_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "review_edits" ADD CONSTRAINT "review_edits_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_campaign_leads" ADD CONSTRAINT "studio_campaign_leads_studio_campaign_id_studio_campaigns_id_fk" FOREIGN KEY ("studio_campaign_id") REFERENCES "public"."studio_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_campaign_leads" ADD CONSTRAINT "studio_campaign_leads_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_campaigns" ADD CONSTRAINT "studio_campaigns_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_campaigns" ADD CONSTRAINT "studio_campaigns_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_campaigns" ADD CONSTRAINT "studio_campaigns_batch_id_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."batches"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_campaigns" ADD CONSTRAINT "studio_campaigns_plan_step_id_plan_steps_id_fk" FOREIGN KEY ("plan_step_id") REFERENCES "public"."plan_steps"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "studio_campaigns" ADD CONSTRAINT "studio_campaigns_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "batch_leads_lead_idx" ON "batch_leads" USING btree ("pool_lead_id");--> statement-breakpoint
CREATE INDEX "batch_leads_batch_pos_idx" ON "batch_leads" USING btree ("batch_id","position");--> statement-breakpoint
CREATE INDEX "batch_writes_batch_at_idx" ON "batch_writes" USING btree ("batch_id","at");--> statement-breakpoint
CREATE INDEX "batches_client_created_idx" ON "batches" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE INDEX "batches_org_idx" ON "batches" USING btree ("org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "learned_rules_client_key_uq" ON "learned_rules" USING btree ("client_id","key");--> statement-breakpoint
CREATE INDEX "review_edits_client_at_idx" ON "review_edits" USING btree ("client_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "studio_campaign_leads_pushed_uq" ON "studio_campaign_leads" USING btree ("pool_lead_id") WHERE "studio_campaign_leads"."outcome" = 'pushed';--> statement-breakpoint
CREATE INDEX "studio_campaign_leads_email_idx" ON "studio_campaign_leads" USING btree ("org_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "studio_campaigns_batch_uq" ON "studio_campaigns" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "studio_campaigns_client_idx" ON "studio_campaigns" USING btree ("client_id","created_at");