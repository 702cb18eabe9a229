/** Used by record.mjs on every request it writes as a fixture (test/fixtures/agents/). */

/**
 * A recording names no path of the machine it was made on. The scratch dir is
 * written `<tmp>`, both as a path and in the form Claude Code gives a project
 * folder (every character but letters and digits turned into `-`, e.g.
 * `-tmp-switchyard-agents-record-AbC123-claude-…-work`); a recording whose
 * scratch dir is unknown (an older fixture) is matched by the dir's prefix.
 * Paths under it keep their shape but not names that read like a machine's
 * own folders (a `tmp` or `work` segment: the CLI's temp folder, the
 * workspace). Codex's `"agent_name":"/root"` is not a path (it is the name of
 * the first agent in Codex's agent tree, as its instructions say) and stays.
 */
export function scrubPaths(text, scratch) {
  let scrubbed = text;
  if (scratch) scrubbed = scrubbed.replaceAll(scratch, '<tmp>').replaceAll(projectFolderName(scratch), '<tmp>');
  scrubbed = scrubbed.replace(/-[A-Za-z0-9-]*?-switchyard-agents-record-[A-Za-z0-9]+(?=-)/g, '<tmp>');
  return scrubbed.replace(/<tmp>[^"\s`')]*/g, (found) => found.replace(/\/tmp(?![A-Za-z0-9_.-])/g, '/temp').replace(/\/work(?![A-Za-z0-9_.-])/g, '/workspace'));
}

/** How Claude Code names the folder it keeps a project's memory and sessions in. */
function projectFolderName(dir) {
  return dir.replace(/[^A-Za-z0-9]/g, '-');
}
