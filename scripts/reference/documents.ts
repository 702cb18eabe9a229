/** The generated documents, by path from the repository root. */
import { renderAdminApi } from './admin-api.js';
import { renderReference } from './reference.js';

export function generatedDocs(): Record<string, string> {
  return { 'docs/reference.md': renderReference(), 'docs/admin-api.md': renderAdminApi() };
}
