import type { ImageBlock } from '@toolshed/core';

/** File extensions Read treats as images. */
export const IMAGE_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.gif', '.webp']);

/** The largest image Read returns: the API takes 5 MB of base64, which is 3.75 MB of bytes. */
export const MAX_IMAGE_BYTES = Math.floor((5 * 1024 * 1024 * 3) / 4);

/**
 * The image type told by the file's first bytes (the extension may lie).
 *
 * @param bytes The file's bytes.
 * @returns The media type, or undefined when the bytes are none of png, jpeg, gif, webp.
 *
 * @example
 * ```ts
 * import { sniffImage } from './_image.ts';
 *
 * sniffImage(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])); // 'image/png'
 * ```
 */
export function sniffImage(bytes: Uint8Array): ImageBlock['source']['media_type'] | undefined {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, 16));
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])))
    return 'image/png';
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg';
  if (b.length >= 6 && (b.toString('latin1', 0, 6) === 'GIF87a' || b.toString('latin1', 0, 6) === 'GIF89a'))
    return 'image/gif';
  if (b.length >= 12 && b.toString('latin1', 0, 4) === 'RIFF' && b.toString('latin1', 8, 12) === 'WEBP')
    return 'image/webp';
  return undefined;
}
