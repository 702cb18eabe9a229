/** An audit entry read for people: who acted, and which fields of the target changed. */
import type { AuditEntry } from '../types.js';

type View = Record<string, unknown> | null;

export interface FieldChange {
  field: string;
  before: string | undefined;
  after: string | undefined;
  changed: boolean;
}

const shown = (view: View, field: string): string | undefined => (view && field in view ? JSON.stringify(view[field]) : undefined);

/** Every field of either side, in the order they first appear, each with whether it changed. */
export function fieldChanges(before: View, after: View): FieldChange[] {
  const fields = [...new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})])];
  return fields.map((field) => {
    const was = shown(before, field);
    const is = shown(after, field);
    return { field, before: was, after: is, changed: was !== is };
  });
}

export function actorText(entry: Pick<AuditEntry, 'actorKind' | 'actorId' | 'actorName'>): string {
  const who = entry.actorName ?? entry.actorId;
  return who && who !== entry.actorKind ? `${entry.actorKind} (${entry.actorId ?? who})` : entry.actorKind;
}
