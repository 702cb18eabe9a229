/**
 * Turns a zod schema into reference rows (path, type, default, required,
 * meaning) through zod's own JSON Schema output, so the documentation reads
 * exactly what the parser enforces. Descriptions come from `.describe()`.
 */
import { z } from 'zod';

export interface SchemaRow {
  path: string;
  type: string;
  default?: string;
  required: boolean;
  description: string;
}

// biome-ignore lint/suspicious/noExplicitAny: JSON Schema documents of any shape are walked here
type Json = { [key: string]: any };

export function schemaRows(schema: z.ZodType): SchemaRow[] {
  return jsonSchemaRows(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json);
}

/** The rows of a JSON Schema already built (a channel type's settings, as the admin API shows them). */
export function jsonSchemaRows(json: Json): SchemaRow[] {
  const rows: SchemaRow[] = [];
  walkObject(json, '', rows);
  return rows;
}

function walkObject(node: Json, prefix: string, rows: SchemaRow[]): void {
  const required = new Set<string>(node.required ?? []);
  for (const [name, child] of Object.entries<Json>(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${name}` : name;
    rows.push({
      path,
      type: typeText(child),
      default: child.default === undefined ? undefined : JSON.stringify(child.default),
      required: required.has(name),
      description: child.description ?? '',
    });
    walkChildren(child, path, rows);
  }
}

function walkChildren(node: Json, path: string, rows: SchemaRow[]): void {
  if (node.properties) walkObject(node, path, rows);
  else if (node.type === 'array' && node.items?.properties) walkObject(node.items, `${path}[]`, rows);
  else if (node.type === 'object' && node.additionalProperties?.properties) walkObject(node.additionalProperties, `${path}.<name>`, rows);
}

function typeText(node: Json): string {
  if (node.anyOf) return [...new Set((node.anyOf as Json[]).map(typeText))].join(' or ');
  if (Array.isArray(node.type)) return node.type.join(' or ');
  if (node.enum) return (node.enum as unknown[]).map((value) => JSON.stringify(value)).join(' or ');
  if (node.const !== undefined) return JSON.stringify(node.const);
  switch (node.type) {
    case 'array':
      return `list of ${node.items ? typeText(node.items) : 'values'}`;
    case 'object':
      if (node.properties) return 'object';
      if (node.additionalProperties && Object.keys(node.additionalProperties).length > 0) return `map of ${typeText(node.additionalProperties)}`;
      return 'map';
    case 'string':
      return node.format === 'uri' ? 'URL' : node.format === 'date-time' ? 'date-time' : 'string';
    case 'null':
      return 'null';
    default:
      return node.type ?? 'any';
  }
}

/** A markdown table of the rows; `|` in cells is escaped. */
export function rowsTable(rows: SchemaRow[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const lines = ['| key | type | default | meaning |', '|---|---|---|---|'];
  for (const row of rows) {
    const fallback = row.default !== undefined ? `\`${row.default}\`` : row.required ? 'required' : '';
    lines.push(`| \`${row.path}\` | ${cell(row.type)} | ${cell(fallback)} | ${cell(row.description)} |`);
  }
  return lines.join('\n');
}
