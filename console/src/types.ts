/**
 * The admin API's records as the console reads them: names for the types
 * generated from the API's OpenAPI document (admin-api.d.ts, written by
 * `npm run docs:reference`; see docs/admin-api.md), so a change to an answer
 * shows up here as a type error. Only the console's own shapes are written
 * by hand (the JSON Schema of a channel type's settings, which the document
 * carries as an open record).
 */
import type { components } from './admin-api.js';

type Schemas = components['schemas'];

export type KeyView = Schemas['KeyView'] & {
  /** On a create or change answer: models the key may use that have no price (with a quota, they would cost nothing). */
  warnings?: string[];
};
export type CreatedKey = Schemas['CreatedKey'];

/** One row of `GET /admin/usage`: totals per key and model. */
export type UsageRow = Schemas['UsageSummary']['data'][number];

export type TeamView = Schemas['TeamView'];
export type MemberView = Schemas['MemberView'];
export type UserView = Schemas['UserView'];
export type BudgetView = Schemas['BudgetView'];

export type ChannelView = Schemas['ChannelView'];
export type Breaker = ChannelView['health'];
export type ChannelTest = Schemas['ChannelTest'];

/** One key of a channel type's settings, as JSON Schema (the console's reading of it). */
export interface SettingSchema {
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  default?: unknown;
  [key: string]: unknown;
}

/** A channel type as `GET /admin/channel-types` lists it, its settings' JSON Schema read as the console reads it. */
export type ChannelType = Omit<Schemas['ChannelTypes']['data'][number], 'settings'> & {
  /** The settings' JSON Schema: every key it takes, with its description and default. */
  settings?: { properties?: Record<string, SettingSchema>; [key: string]: unknown };
};

export type LogRow = Schemas['LogRow'];
export type LogDetail = Schemas['LogDetail'];
export type LogPage = Schemas['LogPage'];
export type TaskPage = Schemas['TaskPage'];

/** The time series of `GET /admin/usage/series`: one point per step. */
export type UsageSeries = Schemas['UsageSeries'];
export type SeriesPoint = UsageSeries['series'][number]['points'][number];

/** Spend beside upstream cost (`GET /admin/usage`): the margin is over the requests whose upstream cost is known. */
export type MarginView = Schemas['UsageSummary']['totals'];
export type UsageReport = Pick<Schemas['UsageSummary'], 'channels' | 'totals'>;

export type TaskView = Schemas['TaskView'];
export type TaskDetail = Schemas['TaskDetail'];

export type PriceView = Schemas['PriceView'];
/** One model's price: USD per million tokens, per call, per second of video; long-context tiers. */
export type ModelPrice = PriceView['price'];
export type PriceList = Schemas['PriceList'];
export type CatalogueAbout = NonNullable<PriceList['catalogue']>;
export type PriceQuote = Schemas['PriceQuote'];
export type CatalogueModel = Schemas['PriceCatalogue']['data'][number];

/** `GET /admin/settings`. */
export type SettingsAnswer = Schemas['Settings'];

/** One administrative change (`GET /admin/audit`): who, when, what, the target before and after. */
export type AuditEntry = Schemas['AuditEntry'];
export type AuditPage = Schemas['AuditPage'];

/** `GET /admin/me`: who is signed in and what they may do. */
export type Me = Schemas['Me'];
export type AdminTokenView = Schemas['AdminTokenView'];
export type CreatedAdminToken = Schemas['CreatedAdminToken'];
