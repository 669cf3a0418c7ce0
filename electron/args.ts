/**
 * The desktop app's command line: `--port`, `--data`, `--fixture` (as the CLI's). Anything else
 * on it (the script path in development, Chromium switches such as --no-sandbox or
 * --remote-debugging-port added by tools) is left alone.
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';

const argsSchema = z.object({
  port: z
    .string()
    .regex(/^\d+$/, '--port takes a whole number from 0 to 65535')
    .transform(Number)
    .pipe(z.int().max(65535, '--port takes a whole number from 0 to 65535'))
    // A free port unless told: the menu's "Copy Base URL" gives the one in use.
    .default(0),
  data: z.string().min(1, '--data takes a folder').optional(),
  fixture: z.string().min(1, '--fixture takes a name or a folder').optional(),
});

export type DesktopArgs = z.output<typeof argsSchema>;

export class DesktopArgsError extends Error {}

export function parseDesktopArgs(argv: readonly string[]): DesktopArgs {
  const { values } = parseArgs({
    args: [...argv],
    options: { port: { type: 'string' }, data: { type: 'string' }, fixture: { type: 'string' } },
    strict: false,
    allowPositionals: true,
  });
  const parsed = argsSchema.safeParse({ port: values['port'], data: values['data'], fixture: values['fixture'] });
  if (!parsed.success) throw new DesktopArgsError(parsed.error.issues.map((issue) => issue.message).join('; '));
  return parsed.data;
}
