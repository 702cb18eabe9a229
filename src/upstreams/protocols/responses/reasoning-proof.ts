/**
 * A reasoning item travels through other dialects as a thinking part whose
 * signature packs the item's id and its `encrypted_content` (the service needs
 * both to take the item back). Signatures of other providers do not unpack.
 */
const separator = ':';

export function packReasoning(id: string | undefined, encrypted: string | null | undefined): string | undefined {
  if (!id || !encrypted) return undefined;
  return `${id}${separator}${encrypted}`;
}

export function unpackReasoning(signature: string | undefined): { id: string; encrypted: string } | undefined {
  if (!signature?.startsWith('rs_')) return undefined;
  const at = signature.indexOf(separator);
  if (at < 0) return undefined;
  return { id: signature.slice(0, at), encrypted: signature.slice(at + 1) };
}
