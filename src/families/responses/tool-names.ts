/**
 * Tool names across translation. Two kinds of Responses tools have no
 * counterpart in other dialects: functions grouped in a `namespace` tool (the
 * model calls them as namespace + name, and the answer's `function_call`
 * carries a `namespace` field) and `custom` freeform tools (called with plain
 * text, answered as `custom_tool_call` items). Translation offers each as a
 * plain function tool under a flat name that fits every upstream's rule
 * (`^[a-zA-Z0-9_-]{1,64}$`) and is unique in the request; calls come back
 * under that name and are rendered as the item the client expects.
 *
 * Flat names: a tool outside any namespace keeps its name; a namespaced one
 * is `<namespace>__<name>` (Codex's own spelling for MCP tools), with
 * characters outside the rule replaced, shortened with a hash when too long,
 * and a numeric suffix on a clash. `functions` is the default namespace: its
 * members are called by their plain name, as Codex does.
 */
import { createHash } from 'node:crypto';

export interface ToolIdentity {
  name: string;
  namespace?: string;
  /** A freeform tool: its one string argument is the call's `input`. */
  custom: boolean;
}

/** The argument a custom tool's stand-in function takes. */
export const customInputField = 'input';

const defaultNamespace = 'functions';
const maxLength = 64;

export class ToolNames {
  private readonly byFlat = new Map<string, ToolIdentity>();
  private readonly byKey = new Map<string, string>();

  /** Registers a tool the request offers and returns its flat name. */
  add(identity: ToolIdentity): string {
    const normalized = normalize(identity);
    const key = keyOf(normalized);
    const known = this.byKey.get(key);
    if (known !== undefined) return known;
    const base = baseName(normalized);
    let flat = base;
    for (let n = 2; this.byFlat.has(flat); n++) flat = `${base.slice(0, maxLength - String(n).length - 1)}_${n}`;
    this.byFlat.set(flat, normalized);
    this.byKey.set(key, flat);
    return flat;
  }

  /** The flat name of a tool a replayed call names (registered if the request no longer offers it). */
  flatName(name: string, namespace: string | null | undefined, custom = false): string {
    return this.byKey.get(keyOf(normalize({ name, namespace: namespace ?? undefined, custom }))) ?? this.add({ name, namespace: namespace ?? undefined, custom });
  }

  /** The client's identity of a flat name an upstream called; an unknown name stands for itself. */
  identity(flat: string): ToolIdentity {
    return this.byFlat.get(flat) ?? { name: flat, custom: false };
  }
}

function normalize(identity: ToolIdentity): ToolIdentity {
  if (!identity.namespace || identity.namespace === defaultNamespace) return { name: identity.name, custom: identity.custom };
  return identity;
}

function keyOf(identity: ToolIdentity): string {
  return `${identity.namespace ?? ''}\u0000${identity.name}`;
}

function baseName(identity: ToolIdentity): string {
  const joined = identity.namespace ? `${identity.namespace}__${identity.name}` : identity.name;
  const clean = joined.replace(/[^a-zA-Z0-9_-]/g, '_') || 'tool';
  if (clean.length <= maxLength) return clean;
  const hash = createHash('sha256').update(joined).digest('hex').slice(0, 8);
  return `${clean.slice(0, maxLength - 9)}_${hash}`;
}
