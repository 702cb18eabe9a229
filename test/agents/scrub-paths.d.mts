/** Writes the recording's scratch dir `<tmp>` (as a path and as a Claude Code project folder name) and renames `tmp`/`work` segments under it. */
export function scrubPaths(text: string, scratch?: string): string;
