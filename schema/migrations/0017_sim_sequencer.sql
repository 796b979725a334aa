CREATE TABLE "sim_sequencer_campaigns" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"reference" text NOT NULL,
	"name" text NOT NULL,
	"mailboxes" jsonb NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_sequencer_leads" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"email" text NOT NULL,
	"mails" jsonb NOT NULL,
	"fields" jsonb NOT NULL,
	"next_step" integer,
	"next_day" text,
	"added_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sim_sequencer_sends" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"org_id" uuid NOT NULL,
	"campaign_id" uuid NOT NULL,
	"lead_email" text NOT NULL,
	"step" integer NOT NULL,
	"mailbox" text NOT NULL,
	"day" text NOT NULL,
	"outcome" text NOT NULL,
	"reply_body" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "sim_sequencer_campaigns" ADD CONSTRAINT "sim_sequencer_campaigns_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_sequencer_leads" ADD CONSTRAINT "sim_sequencer_leads_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_sequencer_leads" ADD CONSTRAINT "sim_sequencer_leads_campaign_id_sim_sequencer_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."sim_sequencer_campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sim_sequencer_sends" ADD CONSTRAINT "sim_sequencer_sends_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "sim_sequencer_campaigns_ref_uq" ON "sim_sequencer_campaigns" USING btree ("org_id","reference");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_sequencer_leads_campaign_email_uq" ON "sim_sequencer_leads" USING btree ("campaign_id","email");--> statement-breakpoint
CREATE UNIQUE INDEX "sim_sequencer_sends_uq" ON "sim_sequencer_sends" USING btree ("campaign_id","lead_email","step");--> statement-breakpoint
CREATE INDEX "sim_sequencer_sends_org_day_idx" ON "sim_sequencer_sends" USING btree ("org_id","day");