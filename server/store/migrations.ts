/**
 * Data files written by older versions of the emulator (issue 7). Each migration takes the raw
 * JSON of one format version to the next; the loader keeps a backup of the original file
 * (`data.json.v<old>.bak`) before writing the migrated one. A file without `format_version`
 * comes from before the format was versioned: version 0.
 */
import { FORMAT_VERSION } from './schema.js';

type Raw = Record<string, unknown>;

interface Migration {
  from: number;
  describe: string;
  migrate(raw: Raw): Raw;
}

const MIGRATIONS: Migration[] = [
  {
    from: 0,
    describe: 'files from before the format was versioned gain format_version',
    migrate: (raw) => ({ format_version: 1, ...raw }),
  },
];

export class MigrationError extends Error {}

/** The version a raw data file declares (0 when it declares none). */
export function versionOf(raw: unknown): number {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return FORMAT_VERSION;
  const version = (raw as Raw)['format_version'];
  return version === undefined ? 0 : typeof version === 'number' ? version : FORMAT_VERSION;
}

/** Brings raw data to the current format; returns it and the steps taken (empty when current). */
export function migrate(raw: unknown): { data: unknown; applied: string[] } {
  let version = versionOf(raw);
  if (version > FORMAT_VERSION) {
    throw new MigrationError(
      `written by a newer emulator (format ${version}; this one reads up to ${FORMAT_VERSION}): upgrade cms-emulator`,
    );
  }
  let data = raw;
  const applied: string[] = [];
  while (version < FORMAT_VERSION) {
    const step = MIGRATIONS.find((m) => m.from === version);
    if (!step) throw new MigrationError(`no migration from format ${version}`);
    data = step.migrate(data as Raw);
    applied.push(`${version} → ${version + 1}: ${step.describe}`);
    version += 1;
  }
  return { data, applied };
}
