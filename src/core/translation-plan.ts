/**
 * A translation plan: what one upstream will do with each field of a
 * translated request, decided before routing (never inside the failover
 * loop). Every field the request carries gets one treatment:
 *
 * - `native`: the upstream has the same thing; forwarded as is;
 * - `mapped`: converted to the upstream's own equivalent (system turns folded
 *   into its system prompt, adaptive thinking into a budget, a web search
 *   tool into the upstream's own search…);
 * - `hint`: ignored, because it cannot change the answer (cache keys, client
 *   metadata, sampling hints the upstream lacks) or because it is a
 *   provider-run tool the upstream has no equivalent of and the client did
 *   not force it (left out);
 * - `refused`: dropping it would silently change what the client asked for.
 *
 * A channel whose plan refuses is skipped in favour of one that can serve;
 * the client gets a 400 only when no candidate can. In strict mode (a key or
 * channel setting) every `hint` becomes a refusal.
 */
import { GatewayError } from './errors.js';

export type Treatment = 'native' | 'mapped' | 'hint' | 'refused';

export interface FieldDecision {
  /** The field as the client would recognise it (`top_k`, `context_management`, `tool web_search`). */
  field: string;
  treatment: Treatment;
  /** Why, or what it became (`→ system prompt`, `the upstream has no top_k`). */
  note?: string;
}

export interface TranslationPlan {
  /** The channel type that made the plan. */
  upstream: string;
  decisions: FieldDecision[];
  /** Set when some field is refused: the error the client gets if no other candidate can serve. */
  refusal?: GatewayError;
}

/**
 * Where a decision sits in a plan, whatever the order its field is met in
 * while the upstream body is built: decisions are listed (and the first
 * refusal chosen) by this rank, then in the order they were made. Shared
 * rules come first, in this order; an adapter's own rules follow
 * (`PlanRank.rules + n`).
 */
export const PlanRank = {
  systemTurns: 0,
  adaptiveThinking: 1,
  sampling: 2,
  builtinTools: 3,
  deferLoading: 4,
  features: 5,
  hints: 6,
  promptCache: 7,
  rules: 8,
} as const;

/**
 * Collects decisions in one pass over a request, made by the code that
 * builds the upstream body at the place it handles each field; `build`
 * orders them by rank and turns refusals (and, when strict, hints) into the
 * plan's refusal.
 */
export class PlanBuilder {
  private readonly decisions: FieldDecision[] = [];
  private readonly ranks: number[] = [];
  private ordered = true;

  /**
   * `upstream`: the type the plan is for; `named`: how refusals and hints
   * name it ("vertex upstream (Claude models)"), `<upstream> upstream` when absent.
   */
  constructor(
    private readonly upstream: string,
    readonly named: string = `${upstream} upstream`,
  ) {}

  native(field: string, note?: string, rank: number = PlanRank.rules): this {
    return this.add({ field, treatment: 'native', note }, rank);
  }

  mapped(field: string, note?: string, rank: number = PlanRank.rules): this {
    return this.add({ field, treatment: 'mapped', note }, rank);
  }

  hint(field: string, note?: string, rank: number = PlanRank.rules): this {
    return this.add({ field, treatment: 'hint', note }, rank);
  }

  refused(field: string, note: string, rank: number = PlanRank.rules): this {
    return this.add({ field, treatment: 'refused', note }, rank);
  }

  /** Whether a decision of this treatment was already made for `field` (for fields met once per occurrence but decided once). */
  has(field: string, treatment: Treatment): boolean {
    return this.decisions.some((decision) => decision.field === field && decision.treatment === treatment);
  }

  /** Whether some field is refused so far. */
  get refuses(): boolean {
    return this.decisions.some((decision) => decision.treatment === 'refused');
  }

  private add(decision: FieldDecision, rank: number): this {
    if (decision.note === undefined) delete decision.note;
    if (this.ranks.length > 0 && rank < this.ranks[this.ranks.length - 1]) this.ordered = false;
    this.decisions.push(decision);
    this.ranks.push(rank);
    return this;
  }

  build(strict = false): TranslationPlan {
    const plan: TranslationPlan = { upstream: this.upstream, decisions: this.ordered ? this.decisions : this.byRank() };
    const refused = plan.decisions.find((d) => d.treatment === 'refused') ?? (strict ? plan.decisions.find((d) => d.treatment === 'hint') : undefined);
    if (refused) plan.refusal = refusalError(this.named, refused, strict && refused.treatment === 'hint');
    return plan;
  }

  private byRank(): FieldDecision[] {
    const order = this.decisions.map((_, index) => index);
    order.sort((a, b) => this.ranks[a] - this.ranks[b] || a - b);
    return order.map((index) => this.decisions[index]);
  }
}

function refusalError(named: string, decision: FieldDecision, becauseStrict: boolean): GatewayError {
  const reason = becauseStrict
    ? `strict translation is on and the ${named} serving this model would ignore it${decision.note ? ` (${decision.note})` : ''}`
    : `the ${named} serving this model ${decision.note ?? 'cannot honour it'}`;
  return new GatewayError('unsupported_feature', `${decision.field} is not supported: ${reason}`, { param: decision.field });
}

/** The plan of a pass-through exchange: everything is forwarded untouched, nothing to report. */
export function nativePlan(upstream: string): TranslationPlan {
  return { upstream, decisions: [] };
}

/**
 * The translation header and log text: what was mapped and what was ignored,
 * e.g. `mapped=system turns,thinking.adaptive; ignored=top_k,context_management`.
 * Undefined when the plan changed nothing worth telling.
 */
export function describePlan(plan: TranslationPlan): string | undefined {
  const mapped = unique(plan.decisions.filter((d) => d.treatment === 'mapped').map((d) => d.field));
  const ignored = unique(plan.decisions.filter((d) => d.treatment === 'hint').map((d) => d.field));
  const parts: string[] = [];
  if (mapped.length > 0) parts.push(`mapped=${mapped.join(',')}`);
  if (ignored.length > 0) parts.push(`ignored=${ignored.join(',')}`);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** Field names may come from the client (unknown keys): keep the header printable ASCII without separators. */
function unique(values: string[]): string[] {
  return [...new Set(values.map((value) => value.replace(/[^\x21-\x7e ]|[,;=]/g, '?').slice(0, 80)))];
}

/** `describePlan`'s text read back into its lists (for the admin API's log detail). */
export function readPlanDescription(text: string | null): { mapped: string[]; ignored: string[] } {
  const read = { mapped: [] as string[], ignored: [] as string[] };
  for (const part of (text ?? '').split('; ')) {
    const [name, list] = part.split('=', 2);
    if ((name === 'mapped' || name === 'ignored') && list) read[name] = list.split(',');
  }
  return read;
}
