/** Where the image CDN is mounted on the emulator's port (docs/spec-gaps.md: cdn_url). */
export const CDN_PATH = '/cdn';
