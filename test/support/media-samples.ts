/** The first bytes of each image type the gateway recognises, as base64: enough for its signature check. */
export const IMAGE_HEADS = {
  'image/png': 'iVBORw0KGgo=',
  'image/jpeg': '/9j/4A==',
  'image/gif': 'R0lGODlh',
  'image/webp': 'UklGRgAAAABXRUJQ',
} as const;

export const PNG_HEAD = IMAGE_HEADS['image/png'];
