CREATE TABLE "bridge_hooks" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"tool_name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"last_received_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finder_calls" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"run_id" uuid,
	"lead_id" uuid,
	"provider" text NOT NULL,
	"operation" text NOT NULL,
	"domain" text,
	"email" text,
	"outcome" text NOT NULL,
	"cost_micros" integer DEFAULT 0 NOT NULL,
	"simulated" boolean DEFAULT false NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "finder_runs" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"key_id" uuid,
	"token_hash" text NOT NULL,
	"lead_ids" jsonb NOT NULL,
	"status" text DEFAULT 'running' NOT NULL,
	"processed" integer DEFAULT 0 NOT NULL,
	"found" integer DEFAULT 0 NOT NULL,
	"credits" integer DEFAULT 0 NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "icps" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"name" text NOT NULL,
	"rules" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lead_imports" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"name" text NOT NULL,
	"source" text NOT NULL,
	"day" text NOT NULL,
	"added" integer DEFAULT 0 NOT NULL,
	"duplicates" integer DEFAULT 0 NOT NULL,
	"already_mailed" integer DEFAULT 0 NOT NULL,
	"waiting_for_email" integer DEFAULT 0 NOT NULL,
	"invalid" integer DEFAULT 0 NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pool_columns" (
	"client_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"key" text NOT NULL,
	"type" text NOT NULL,
	"use_for_writing" boolean DEFAULT false NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "pool_columns_client_id_key_pk" PRIMARY KEY("client_id","key")
);
--> statement-breakpoint
CREATE TABLE "pool_leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"email" text,
	"email_status" text,
	"first_name" text,
	"last_name" text,
	"full_name" text,
	"company" text,
	"domain" text,
	"website" text,
	"title" text,
	"linkedin_url" text,
	"company_linkedin_url" text,
	"country" text,
	"city" text,
	"state" text,
	"volume_band" text,
	"monthly_volume" integer,
	"mail_type" text,
	"current_sender" text,
	"hook" text,
	"named_account" boolean,
	"sends_for_customers" boolean,
	"note" text,
	"icp_id" uuid,
	"status" text DEFAULT 'new' NOT NULL,
	"custom" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"provenance" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"person_key" text,
	"import_id" uuid,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "segments" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"name" text NOT NULL,
	"filter" jsonb NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sequencer_snapshot_emails" (
	"client_id" uuid NOT NULL,
	"email" text NOT NULL,
	CONSTRAINT "sequencer_snapshot_emails_client_id_email_pk" PRIMARY KEY("client_id","email")
);
--> statement-breakpoint
CREATE TABLE "sequencer_snapshots" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"day" text NOT NULL,
	"count" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_table_posts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"push_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"url" text NOT NULL,
	"body" jsonb NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "table_destinations" (
	"client_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"url" text NOT NULL,
	"token_enc" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "table_push_items" (
	"push_id" uuid NOT NULL,
	"lead_id" uuid NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"not_before" timestamp with time zone,
	"last_error" text,
	CONSTRAINT "table_push_items_push_id_lead_id_pk" PRIMARY KEY("push_id","lead_id")
);
--> statement-breakpoint
CREATE TABLE "table_pushes" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"client_id" uuid NOT NULL,
	"rows" integer NOT NULL,
	"sent" integer DEFAULT 0 NOT NULL,
	"failed" integer DEFAULT 0 NOT NULL,
	"suppressed" integer DEFAULT 0 NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bridge_hooks" ADD CONSTRAINT "bridge_hooks_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "bridge_hooks" ADD CONSTRAINT "bridge_hooks_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_calls" ADD CONSTRAINT "finder_calls_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_runs" ADD CONSTRAINT "finder_runs_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_runs" ADD CONSTRAINT "finder_runs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finder_runs" ADD CONSTRAINT "finder_runs_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "icps" ADD CONSTRAINT "icps_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "icps" ADD CONSTRAINT "icps_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_imports" ADD CONSTRAINT "lead_imports_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lead_imports" ADD CONSTRAINT "lead_imports_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_columns" ADD CONSTRAINT "pool_columns_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_columns" ADD CONSTRAINT "pool_columns_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_leads" ADD CONSTRAINT "pool_leads_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pool_leads" ADD CONSTRAINT "pool_leads_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "segments" ADD CONSTRAINT "segments_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequencer_snapshot_emails" ADD CONSTRAINT "sequencer_snapshot_emails_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequencer_snapshots" ADD CONSTRAINT "sequencer_snapshots_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sequencer_snapshots" ADD CONSTRAINT "sequencer_snapshots_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_table_posts" ADD CONSTRAINT "sim_table_posts_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "table_destinations" ADD CONSTRAINT "table_destinations_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "table_destinations" ADD CONSTRAINT "table_destinations_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "table_push_items" ADD CONSTRAINT "table_push_items_push_id_table_pushes_id_fk" FOREIGN KEY ("push_id") REFERENCES "public"."table_pushes"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "table_pushes" ADD CONSTRAINT "table_pushes_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "table_pushes" ADD CONSTRAINT "table_pushes_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bridge_hooks_client_idx" ON "bridge_hooks" USING btree ("client_id");--> statement-breakpoint
CREATE INDEX "finder_calls_org_at_idx" ON "finder_calls" USING btree ("org_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "finder_runs_token_uq" ON "finder_runs" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "icps_client_name_uq" ON "icps" USING btree ("client_id","name");--> statement-breakpoint
CREATE INDEX "lead_imports_client_created_idx" ON "lead_imports" USING btree ("client_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lead_imports_bridge_day_uq" ON "lead_imports" USING btree ("client_id","source","day") WHERE "lead_imports"."source" like 'bridge:%';--> statement-breakpoint
CREATE UNIQUE INDEX "pool_leads_client_email_uq" ON "pool_leads" USING btree ("client_id","email") WHERE "pool_leads"."email" is not null;--> statement-breakpoint
CREATE UNIQUE INDEX "pool_leads_client_person_uq" ON "pool_leads" USING btree ("client_id","person_key") WHERE "pool_leads"."email" is null and "pool_leads"."person_key" is not null;--> statement-breakpoint
CREATE INDEX "pool_leads_client_created_idx" ON "pool_leads" USING btree ("client_id","created_at","id");--> statement-breakpoint
CREATE INDEX "pool_leads_client_domain_idx" ON "pool_leads" USING btree ("client_id","domain");--> statement-breakpoint
CREATE UNIQUE INDEX "segments_client_name_uq" ON "segments" USING btree ("client_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_table_posts_push_lead_uq" ON "sim_table_posts" USING btree ("push_id","lead_id");--> statement-breakpoint
CREATE INDEX "table_push_items_pending_idx" ON "table_push_items" USING btree ("push_id","status");--> statement-breakpoint
CREATE INDEX "table_pushes_client_idx" ON "table_pushes" USING btree ("client_id","created_at");