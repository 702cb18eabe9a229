/**
 * The translation plan tables of docs/translation/<family>.md, generated from
 * the families' conversions and the adapters' plans (see translation/tables.ts).
 * Only the block between the generated markers is replaced; the prose around
 * it is written by hand.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { chatUpstreams } from './translation/decide.js';
import { chatCompletionsFamily, completionsFamily, generateFamily, messagesFamily, type ProbedFamily, responsesFamily } from './translation/families.js';
import { chatCompletionsProbes } from './translation/probes-chat-completions.js';
import { completionsProbes } from './translation/probes-completions.js';
import { generateProbes } from './translation/probes-generate.js';
import { messagesProbes } from './translation/probes-messages.js';
import { responsesProbes } from './translation/probes-responses.js';
import { type Probe, renderTable, spliceTable } from './translation/tables.js';

const tables: ReadonlyArray<readonly [ProbedFamily, readonly Probe[]]> = [
  [messagesFamily, messagesProbes],
  [generateFamily, generateProbes],
  [responsesFamily, responsesProbes],
  [chatCompletionsFamily, chatCompletionsProbes],
  [completionsFamily, completionsProbes],
];

/** Each translation document as it should be, by path from the repository root (`root`). */
export async function translationDocs(root: string): Promise<Record<string, string>> {
  const upstreams = await chatUpstreams();
  const out: Record<string, string> = {};
  for (const [family, probes] of tables) {
    const current = readFileSync(path.join(root, family.doc), 'utf8');
    out[family.doc] = spliceTable(family.doc, current, renderTable(family, probes, upstreams));
  }
  return out;
}
