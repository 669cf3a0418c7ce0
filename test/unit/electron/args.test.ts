import { describe, expect, it } from 'vitest';
import { DesktopArgsError, parseDesktopArgs } from '../../../electron/args.js';

describe('parseDesktopArgs', () => {
  it('defaults to a free port and the default data folder', () => {
    expect(parseDesktopArgs([])).toEqual({ port: 0 });
  });

  it('reads --port, --data and --fixture in both spellings', () => {
    expect(parseDesktopArgs(['--port', '4010', '--data=./d', '--fixture', 'fixtures/x'])).toEqual({
      port: 4010,
      data: './d',
      fixture: 'fixtures/x',
    });
  });

  it('ignores the script path and the Chromium switches tools add', () => {
    const argv = ['dist/electron/main.js', '--no-sandbox', '--remote-debugging-port=0', '--inspect=0', '--port', '0', '-x'];
    expect(parseDesktopArgs(argv)).toEqual({ port: 0 });
  });

  it.each([
    [['--port', 'abc'], '--port takes a whole number'],
    [['--port', '70000'], '--port takes a whole number'],
    [['--port', '-1'], '--port takes a whole number'],
    [['--data='], '--data takes a folder'],
  ])('refuses %j', (argv, message) => {
    expect(() => parseDesktopArgs(argv)).toThrow(DesktopArgsError);
    expect(() => parseDesktopArgs(argv)).toThrow(message);
  });
});
