#!/usr/bin/env node
/**
 * `cms-emulator`: argv → options → start; signals → stop. Nothing else lives here.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { ConfigError, DEFAULT_PORT } from './config.js';
import { createEmulator, type Emulator, type RunningInfo } from './emulator.js';
import { FixtureError } from './store/seed.js';
import { StoreLoadError } from './store/load.js';

const USAGE = `Usage: cms-emulator [options]

Runs a local stand-in of the headless CMS REST API (v2).

Options:
  --port <n>         port to listen on; 0 picks a free one (default ${DEFAULT_PORT})
  --host <host>      interface to listen on (default 127.0.0.1)
  --data <dir>       data folder: data.json plus media (default ./.cms-emulator)
  --fixture <name>   what a new data folder is seeded from: a built-in name or a path (default demo)
  --strict           serve only what the spec shows: the reads it leaves open answer 404
  --https            serve over HTTPS with a certificate generated locally on first use
  --fsync-before-202 answer an accepted write only once its journal entry is flushed to the disk
                     (survives a power cut too; by default it survives the process being killed
                     and is flushed right after the answer)
  --control-token <t> required by the control API (/__emulator) from other machines, and to
                     listen on a non-loopback --host
  -h, --help         show this help
`;

const argvSchema = z.object({
  port: z
    .string()
    .regex(/^\d+$/, '--port takes a whole number from 0 to 65535')
    .transform(Number)
    .pipe(z.int().max(65535, '--port takes a whole number from 0 to 65535'))
    .default(DEFAULT_PORT),
  host: z.string().min(1).optional(),
  data: z.string().min(1).optional(),
  fixture: z.string().min(1).optional(),
  strict: z.boolean().optional(),
  https: z.boolean().optional(),
  'fsync-before-202': z.boolean().optional(),
  'control-token': z.string().optional(),
  help: z.boolean().optional(),
});

function fail(message: string): never {
  process.stderr.write(`cms-emulator: ${message}\n`);
  process.exit(1);
}

function describe(emulator: Emulator, running: RunningInfo): string {
  const { path, seeded, fixture } = emulator.dataFile;
  const lines = [
    'CMS Emulator is running',
    `  API base URL   ${running.apiUrl}${emulator.config.strict ? '  (strict: only what the spec shows)' : ''}`,
    `  CDN URL        ${running.cdnUrl}`,
    `  UI             ${running.uiUrl}  (open it in a browser)`,
    ...(emulator.certificateFile()
      ? [`  Certificate    ${emulator.certificateFile()} (self-signed: trust it, or set NODE_EXTRA_CA_CERTS to it)`]
      : []),
    `  Data file      ${path}${seeded ? ` (new, seeded from ${fixture})` : ''}`,
    '  Organizations',
  ];
  for (const org of emulator.organizations()) {
    lines.push(`    ${org.slug} (${org.name})`, `      read token    ${org.readToken}`, `      write token   ${org.writeToken}`);
  }
  lines.push(`Try: curl '${running.apiUrl}/posts/?auth_token=${emulator.organizations()[0]?.readToken ?? ''}'`, 'Press Ctrl+C to stop.');
  return lines.join('\n') + '\n';
}

async function main(): Promise<void> {
  let parsed;
  try {
    parsed = parseArgs({
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        data: { type: 'string' },
        fixture: { type: 'string' },
        strict: { type: 'boolean' },
        https: { type: 'boolean' },
        'fsync-before-202': { type: 'boolean' },
        'control-token': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    });
  } catch (err) {
    fail(`${(err as Error).message}\n\n${USAGE}`);
  }
  const args = argvSchema.safeParse(parsed.values);
  if (!args.success) fail(args.error.issues.map((i) => i.message).join('; '));
  if (args.data.help) {
    process.stdout.write(USAGE);
    return;
  }

  let emulator: Emulator;
  let running: RunningInfo;
  try {
    emulator = await createEmulator({
      port: args.data.port,
      host: args.data.host,
      dataDir: args.data.data,
      fixture: args.data.fixture,
      strict: args.data.strict,
      controlToken: args.data['control-token'],
      https: args.data.https,
      ...(args.data['fsync-before-202'] && { journalSync: 'before-answer' as const }),
    });
    running = await emulator.start();
  } catch (err) {
    if (err instanceof StoreLoadError || err instanceof ConfigError || err instanceof FixtureError) fail(err.message);
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') fail(`port ${args.data.port} is already in use; pass --port 0 for any free port`);
    if (code === 'EACCES' || code === 'EADDRNOTAVAIL')
      fail(`cannot listen on ${args.data.host ?? '127.0.0.1'}:${args.data.port} (${code})`);
    throw err;
  }
  process.stdout.write(describe(emulator, running));

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) {
      process.stderr.write('cms-emulator: stopping now\n');
      process.exit(1);
    }
    stopping = true;
    process.stdout.write(`\n${signal}: finishing accepted writes and saving…\n`);
    emulator.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`cms-emulator: error while stopping: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

void main();
