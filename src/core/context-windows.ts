/**
 * Context windows (in tokens) per model name, used to refuse or truncate
 * inputs that cannot fit. The config file's `contextWindows` section comes
 * first; keys are exact names or prefixes ending in `*` (the longest prefix
 * wins). Models matched by neither the config nor the defaults are not checked.
 */
import { ModelPatternTable } from './model-pattern.js';

export type ContextWindowTable = Readonly<Record<string, number>>;

/** Published windows of well-known model families; operators override or extend them in config. */
export const defaultContextWindows: ContextWindowTable = {
  'gpt-3.5-turbo*': 16_385,
  'gpt-4': 8_192,
  'gpt-4-turbo*': 128_000,
  'gpt-4o*': 128_000,
  'gpt-4.1*': 1_047_576,
  'gpt-4.5*': 128_000,
  'gpt-5*': 400_000,
  'o1*': 200_000,
  'o3*': 200_000,
  'o4*': 200_000,
  'codex-*': 200_000,
  'claude-*': 200_000,
  'gemini-*': 1_048_576,
  'deepseek-*': 128_000,
  'qwen*': 131_072,
  'llama-*': 128_000,
  'mistral-*': 128_000,
  'grok-*': 131_072,
};

const defaults = new ModelPatternTable(defaultContextWindows);
/** Built once per configured table (the config file's object lives as long as the gateway). */
const configuredTables = new WeakMap<ContextWindowTable, ModelPatternTable<number>>();

function tableOf(configured: ContextWindowTable): ModelPatternTable<number> {
  let table = configuredTables.get(configured);
  if (!table) configuredTables.set(configured, (table = new ModelPatternTable(configured)));
  return table;
}

export function contextWindowFor(model: string, configured: ContextWindowTable | undefined): number | undefined {
  return (configured && tableOf(configured).get(model)) ?? defaults.get(model);
}
