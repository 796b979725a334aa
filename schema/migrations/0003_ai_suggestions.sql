CREATE TABLE "ai_suggestions" (
	"id" text PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"key_id" uuid NOT NULL,
	"client_id" uuid,
	"status" text NOT NULL,
	"credit_day" date NOT NULL,
	"medium" text NOT NULL,
	"reply_text" text NOT NULL,
	"lead_email" text,
	"suggestion" text,
	"suggestion_sha" text,
	"strategy" text,
	"model" text,
	"confidence" real,
	"accepted" boolean,
	"edit_distance" integer,
	"feedback_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"completed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "ai_suggestions" ADD CONSTRAINT "ai_suggestions_org_id_organizations_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_suggestions" ADD CONSTRAINT "ai_suggestions_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ai_suggestions" ADD CONSTRAINT "ai_suggestions_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ai_suggestions_holds_idx" ON "ai_suggestions" USING btree ("key_id","credit_day","status");--> statement-breakpoint
CREATE INDEX "ai_suggestions_text_idx" ON "ai_suggestions" USING btree ("org_id","suggestion_sha");