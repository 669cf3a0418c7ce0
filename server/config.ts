/** Options of createEmulator, checked with zod; the CLI and the harness fill them. */
import { z } from 'zod';

export const DEFAULT_PORT = 4010;

export const emulatorOptionsSchema = z.object({
  /** Interface to listen on; loopback unless asked otherwise. */
  host: z.string().min(1).default('127.0.0.1'),
  /** 0 picks any free port. */
  port: z.int().min(0).max(65535).default(0),
  /** Folder holding the store file (data.json) and, later, media. Seeded from `fixture` when new. */
  dataDir: z.string().min(1).default('.cms-emulator'),
  /** Built-in fixture name (`demo`) or a path to a fixture folder. */
  fixture: z.string().min(1).default('demo'),
  /** Where the emulated API is mounted; the spec puts the version in the base path. */
  basePath: z
    .string()
    .regex(/^\/[A-Za-z0-9._~/-]*[A-Za-z0-9._~-]$/, 'basePath starts with "/" and does not end with one')
    .default('/v2'),
  /**
   * Serve only what the spec shows: the reads it leaves open (single page by slug, collection
   * reads) answer 404, so a team can check that its client uses nothing else.
   */
  strict: z.boolean().default(false),
  /** Media downloads give up after this long (issue 4: a hostile URL must not hang a job). */
  downloadTimeoutMs: z.int().positive().default(15_000),
  /** Media downloads larger than this are refused while streaming. */
  downloadMaxBytes: z
    .int()
    .positive()
    .default(25 * 1024 * 1024),
  /**
   * Required to use the control API (/__emulator) from anywhere but loopback, and required when
   * `host` is not a loopback address.
   */
  controlToken: z.string().min(12, 'controlToken must be at least 12 characters').optional(),
  /** The built UI to serve under /__emulator/ui/; the package's dist/renderer by default. */
  uiDir: z.string().min(1).optional(),
  /** Watch the data file and apply people's edits while running (issue 7). */
  watch: z.boolean().default(true),
  /** Serve over HTTPS with a locally generated certificate (kept in <data>/tls/). */
  https: z.boolean().default(false),
  /**
   * When an accepted write is flushed to the disk (server/jobs/journal.ts). `background`: the 202
   * waits until the job is written to the journal file, which a killed process cannot lose, and the
   * flush to the disk follows at once; `before-answer`: the 202 also waits for that flush, so a
   * power cut cannot lose it either, at a cost of 0.3 to 50 ms a write depending on the disk.
   */
  journalSync: z.enum(['background', 'before-answer']).default('background'),
  /** Largest accepted JSON body (spec gap: request body size limits). */
  bodyLimit: z.string().default('5mb'),
});

export type EmulatorOptions = z.input<typeof emulatorOptionsSchema>;
export type EmulatorConfig = z.output<typeof emulatorOptionsSchema>;

export class ConfigError extends Error {}

const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '::1']);

export function parseOptions(options: EmulatorOptions): EmulatorConfig {
  const result = emulatorOptionsSchema.safeParse(options);
  if (!result.success) throw new ConfigError(`invalid emulator options:\n${z.prettifyError(result.error)}`);
  const config = result.data;
  // Listening beyond this machine exposes reset, import and replay: not without a token.
  if (!LOOPBACK_HOSTS.has(config.host) && !config.host.startsWith('127.') && config.controlToken === undefined) {
    throw new ConfigError(
      `listening on ${config.host} needs a control token (--control-token), since the control API can reset and import data`,
    );
  }
  return config;
}
