/** Reads a request recorded from a coding-agent CLI (test/fixtures/agents/, see the README there). */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export interface RecordedAgentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, any>;
}

const root = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'agents');

export function agentRequest(folder: string, file: string): RecordedAgentRequest {
  return JSON.parse(readFileSync(path.join(root, folder, file), 'utf8')) as RecordedAgentRequest;
}
