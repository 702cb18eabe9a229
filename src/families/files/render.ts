/** OpenAI's file object and list page, from the stored row (times in seconds). */
import type { FileRecord } from '../../storage/files.js';

export function renderFile(file: FileRecord) {
  return {
    id: file.id,
    object: 'file',
    bytes: file.bytes,
    created_at: Math.floor(file.createdAt / 1000),
    expires_at: file.expiresAt === null ? null : Math.floor(file.expiresAt / 1000),
    filename: file.filename,
    purpose: file.purpose,
    status: file.status,
    status_details: null,
  };
}

export function renderFileList(files: FileRecord[], hasMore: boolean) {
  const data = files.map(renderFile);
  return { object: 'list', data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: hasMore };
}
