/** The generated documents, by path from the repository root. */
import { renderReference } from './reference.js';

export function generatedDocs(): Record<string, string> {
  return { 'docs/reference.md': renderReference() };
}
