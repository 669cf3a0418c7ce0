/**
 * The media library (spec: "The service downloads the media and stores it in the media
 * library"; its record fields are not shown). One record per file; the file itself lives in the
 * data folder. Content refers to a library file as `media:<id>`, which reads turn into its URL on
 * the emulator's CDN (the port, and so the URL, changes from run to run).
 */
import { z } from 'zod';

export const MEDIA_ID = /^[A-Za-z0-9]{20}$/;

export const mediaRecordSchema = z.object({
  /** The image id of CDN URLs: `{cdn_url}/<id>`. Unique across the whole data file. */
  id: z.string().regex(MEDIA_ID, 'a media id is 20 letters and digits'),
  /** Path of the file relative to the data folder, e.g. `media/acme/<id>.jpg`. */
  file: z
    .string()
    .regex(/^media\/[A-Za-z0-9_-]+\/[A-Za-z0-9]{20}\.[a-z0-9]{1,5}$/, 'a media file is media/<organization>/<id>.<extension>'),
  /** Where it was downloaded from; null for files that came with a fixture. */
  original_url: z.string().nullable().default(null),
  content_type: z.string().regex(/^[a-z]+\/[a-z0-9.+-]+$/),
  size: z.int().nonnegative(),
  width: z.int().positive().nullable().default(null),
  height: z.int().positive().nullable().default(null),
  alt: z.string().nullable().default(null),
  created: z.iso.datetime({ offset: true }),
});

export type MediaRecord = z.output<typeof mediaRecordSchema>;
