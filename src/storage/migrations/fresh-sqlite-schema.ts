/**
 * Written by scripts/fresh-sqlite-schema.ts; do not edit. The schema every
 * migration below leaves on SQLite, as SQLite records it, in creation order
 * (the migrator's own tables first). See fresh-sqlite.ts.
 */
export const FRESH_SQLITE_MIGRATIONS: readonly string[] = [
  '0001_initial',
  '0002_responses',
  '0003_tasks',
  '0004_translation',
  '0005_quota_holds',
  '0006_log_indexes',
  '0007_usage_sums',
  '0008_billing',
  '0009_costs',
];

export const FRESH_SQLITE_SCHEMA: readonly string[] = [
  'CREATE TABLE "kysely_migration" ("name" varchar(255) not null primary key, "timestamp" varchar(255) not null)',
  'CREATE TABLE "kysely_migration_lock" ("id" varchar(255) not null primary key, "is_locked" integer default 0 not null)',
  'CREATE TABLE "keys" ("id" text primary key, "name" text not null unique, "key_hash" text not null unique, "key_prefix" text not null, "status" text default \'active\' not null, "expires_at" bigint, "quota" double precision, "used" double precision default 0 not null, "models" text, "allow_ips" text, "rpm" integer, "tpm" integer, "created_at" bigint not null, "updated_at" bigint not null, "strict_translation" integer default 0 not null)',
  'CREATE TABLE "channels" ("id" text primary key, "name" text not null unique, "type" text not null, "base_url" text not null, "api_keys" text not null, "models" text not null, "model_mapping" text not null, "priority" integer default 0 not null, "weight" integer default 1 not null, "status" text default \'enabled\' not null, "settings" text not null, "created_at" bigint not null, "updated_at" bigint not null)',
  'CREATE TABLE "request_logs" ("id" text primary key, "request_id" text not null, "key_id" text, "family" text not null, "model" text not null, "upstream_model" text, "channel_id" text, "tried_channels" text not null, "http_status" integer not null, "error_kind" text, "error_message" text, "stream" integer not null, "input_tokens" bigint not null, "output_tokens" bigint not null, "cache_read_tokens" bigint not null, "cache_write_tokens" bigint not null, "reasoning_tokens" bigint not null, "estimated" integer not null, "cost" double precision not null, "latency_ms" integer not null, "first_byte_ms" integer, "client_ip" text, "created_at" bigint not null, "translation" text, "attempts" text, "estimated_parts" text, "cache_write_1h_tokens" bigint default 0 not null, "upstream_cost" double precision, "unpriced" integer default 0 not null)',
  'CREATE INDEX "request_logs_key_created" on "request_logs" ("key_id", "created_at")',
  'CREATE INDEX "request_logs_created" on "request_logs" ("created_at")',
  'CREATE TABLE "settings" ("name" text primary key, "value" text not null, "updated_at" bigint not null)',
  'CREATE TABLE "responses" ("id" text primary key, "key_id" text not null, "previous_response_id" text, "chain" text not null, "response" text not null, "input" text not null, "channel_id" text, "native" integer not null, "upstream_response_id" text, "created_at" bigint not null)',
  'CREATE TABLE "response_items" ("response_id" text not null, "item_id" text not null, "key_id" text not null, "created_at" bigint not null, constraint "response_items_pk" primary key ("response_id", "item_id"))',
  'CREATE INDEX "response_items_key_item" on "response_items" ("key_id", "item_id")',
  'CREATE TABLE "tasks" ("id" text primary key, "family" text not null, "action" text not null, "key_id" text not null, "channel_id" text not null, "account_id" text, "account" text, "upstream_id" text, "upstream_data" text, "parent_id" text, "status" text not null, "progress" integer default 0 not null, "request" text not null, "result" text, "fail_reason" text, "notify_hook" text, "cost" double precision default 0 not null, "billing" text not null, "version" integer default 0 not null, "lease_owner" text, "lease_until" bigint, "next_poll_at" bigint, "poll_count" integer default 0 not null, "submit_time" bigint not null, "start_time" bigint, "finish_time" bigint, "timeout_at" bigint not null, "created_at" bigint not null, "updated_at" bigint not null)',
  'CREATE INDEX "tasks_due" on "tasks" ("next_poll_at")',
  'CREATE INDEX "tasks_key" on "tasks" ("key_id", "submit_time")',
  'CREATE INDEX "tasks_account_status" on "tasks" ("channel_id", "account_id", "status")',
  'CREATE TABLE "task_deliveries" ("id" text primary key, "task_id" text not null, "url" text not null, "event" text not null, "final" integer not null, "payload" text not null, "status" text not null, "attempts" integer default 0 not null, "max_attempts" integer not null, "next_attempt_at" bigint, "lease_owner" text, "lease_until" bigint, "last_status" integer, "last_error" text, "delivered_at" bigint, "created_at" bigint not null, "updated_at" bigint not null)',
  'CREATE INDEX "task_deliveries_due" on "task_deliveries" ("next_attempt_at")',
  'CREATE INDEX "task_deliveries_task" on "task_deliveries" ("task_id", "created_at")',
  'CREATE TABLE "quota_holds" ("id" text primary key, "key_id" text not null, "amount" double precision not null, "expires_at" bigint not null)',
  'CREATE INDEX "quota_holds_key" on "quota_holds" ("key_id", "expires_at")',
  'CREATE INDEX "request_logs_model_created" on "request_logs" ("model", "created_at")',
  'CREATE INDEX "request_logs_channel_created" on "request_logs" ("channel_id", "created_at")',
  'CREATE INDEX "request_logs_family_created" on "request_logs" ("family", "created_at")',
  'CREATE INDEX "request_logs_status_created" on "request_logs" ("http_status", "created_at")',
  'CREATE INDEX "request_logs_errors_created" on "request_logs" ("created_at") where "http_status" >= 400',
  'CREATE INDEX "tasks_family_created" on "tasks" ("family", "created_at")',
  'CREATE TABLE "usage_minutes" ("bucket" bigint not null, "family" text not null, "model" text not null, "channel_id" text not null, "key_id" text not null, "requests" bigint not null, "errors" bigint not null, "rate_limited" bigint not null, "failovers" bigint not null, "input_tokens" bigint not null, "output_tokens" bigint not null, "cache_read_tokens" bigint not null, "cache_write_tokens" bigint not null, "cost" double precision not null, "latency_ms_sum" bigint not null, "lat_0" bigint default 0 not null, "lat_1" bigint default 0 not null, "lat_2" bigint default 0 not null, "lat_3" bigint default 0 not null, "lat_4" bigint default 0 not null, "lat_5" bigint default 0 not null, "lat_6" bigint default 0 not null, "lat_7" bigint default 0 not null, "lat_8" bigint default 0 not null, "lat_9" bigint default 0 not null, "lat_10" bigint default 0 not null, "lat_11" bigint default 0 not null, "ttft_0" bigint default 0 not null, "ttft_1" bigint default 0 not null, "ttft_2" bigint default 0 not null, "ttft_3" bigint default 0 not null, "ttft_4" bigint default 0 not null, "ttft_5" bigint default 0 not null, "ttft_6" bigint default 0 not null, "ttft_7" bigint default 0 not null, "ttft_8" bigint default 0 not null, "ttft_9" bigint default 0 not null, "ttft_10" bigint default 0 not null, "ttft_11" bigint default 0 not null, "cache_write_1h_tokens" bigint default 0 not null, "upstream_cost" double precision default 0 not null, "costed_requests" bigint default 0 not null, "unpriced_requests" bigint default 0 not null, "costed_spend" double precision default 0 not null)',
  'CREATE UNIQUE INDEX "usage_minutes_group" on "usage_minutes" ("bucket", "family", "model", "channel_id", "key_id")',
  'CREATE TABLE "usage_hours" ("bucket" bigint not null, "family" text not null, "model" text not null, "channel_id" text not null, "key_id" text not null, "requests" bigint not null, "errors" bigint not null, "rate_limited" bigint not null, "failovers" bigint not null, "input_tokens" bigint not null, "output_tokens" bigint not null, "cache_read_tokens" bigint not null, "cache_write_tokens" bigint not null, "cost" double precision not null, "latency_ms_sum" bigint not null, "lat_0" bigint default 0 not null, "lat_1" bigint default 0 not null, "lat_2" bigint default 0 not null, "lat_3" bigint default 0 not null, "lat_4" bigint default 0 not null, "lat_5" bigint default 0 not null, "lat_6" bigint default 0 not null, "lat_7" bigint default 0 not null, "lat_8" bigint default 0 not null, "lat_9" bigint default 0 not null, "lat_10" bigint default 0 not null, "lat_11" bigint default 0 not null, "ttft_0" bigint default 0 not null, "ttft_1" bigint default 0 not null, "ttft_2" bigint default 0 not null, "ttft_3" bigint default 0 not null, "ttft_4" bigint default 0 not null, "ttft_5" bigint default 0 not null, "ttft_6" bigint default 0 not null, "ttft_7" bigint default 0 not null, "ttft_8" bigint default 0 not null, "ttft_9" bigint default 0 not null, "ttft_10" bigint default 0 not null, "ttft_11" bigint default 0 not null, "cache_write_1h_tokens" bigint default 0 not null, "upstream_cost" double precision default 0 not null, "costed_requests" bigint default 0 not null, "unpriced_requests" bigint default 0 not null, "costed_spend" double precision default 0 not null)',
  'CREATE UNIQUE INDEX "usage_hours_group" on "usage_hours" ("bucket", "family", "model", "channel_id", "key_id")',
  'CREATE TABLE "prices" ("model" text primary key, "price" text not null, "source" text default \'admin\' not null, "updated_at" bigint not null)',
];
