import type { MenuItemConstructorOptions } from 'electron';
import { describe, expect, it, vi } from 'vitest';
import { dialogConfirm, menuTemplate, shellActions, type ActionDeps } from '../../../electron/menu.js';
import { fakeShell } from './fakes.js';

function setUp(overrides: Partial<ActionDeps> = {}) {
  const defaults = {
    emulator: {
      dataFolder: '/home/me/.config/CMS Emulator/data',
      apiUrl: 'http://127.0.0.1:4321/v2',
      uiUrl: 'http://127.0.0.1:4321/__emulator/ui/',
      reset: vi.fn(() => Promise.resolve()),
    },
    shell: fakeShell(),
    clipboard: { writeText: vi.fn() },
    confirm: vi.fn(() => Promise.resolve(true)),
    showError: vi.fn(),
    quit: vi.fn(),
  };
  // The overrides are mocks too; the tests read them through the defaults' types.
  const deps = { ...defaults, ...overrides } as typeof defaults;
  return { deps, actions: shellActions(deps) };
}

/** The clickable items of a template, by label, with the menu they are in. */
function items(template: MenuItemConstructorOptions[]): Map<string, MenuItemConstructorOptions> {
  const found = new Map<string, MenuItemConstructorOptions>();
  for (const menu of template) {
    for (const item of (menu.submenu ?? []) as MenuItemConstructorOptions[])
      if (item.label) found.set(`${menu.label} > ${item.label}`, item);
  }
  return found;
}

function click(item: MenuItemConstructorOptions | undefined): void {
  (item!.click as () => void)();
}

describe('menuTemplate', () => {
  it('has the emulator menu first on Linux and Windows, with Quit in it', () => {
    for (const platform of ['linux', 'win32'] as const) {
      const { actions } = setUp();
      const template = menuTemplate(actions, platform, 'CMS Emulator');
      expect(template.map((menu) => menu.label ?? menu.role)).toEqual(['Emulator', 'editMenu', 'viewMenu', 'windowMenu']);
      expect([...items(template).keys()]).toEqual([
        'Emulator > Open Data Folder',
        'Emulator > Open UI in Browser',
        'Emulator > Copy Base URL',
        'Emulator > Reset to Fixture…',
        'Emulator > Quit CMS Emulator',
      ]);
    }
  });

  it('puts Quit in the application menu on macOS', () => {
    const { actions } = setUp();
    const template = menuTemplate(actions, 'darwin', 'CMS Emulator');
    expect(template.map((menu) => menu.label ?? menu.role)).toEqual(['CMS Emulator', 'Emulator', 'editMenu', 'viewMenu', 'windowMenu']);
    expect(items(template).has('CMS Emulator > Quit CMS Emulator')).toBe(true);
    expect(items(template).has('Emulator > Quit CMS Emulator')).toBe(false);
  });

  it('wires each item to its action', async () => {
    const { deps, actions } = setUp();
    const menu = items(menuTemplate(actions, 'linux', 'CMS Emulator'));
    click(menu.get('Emulator > Open Data Folder'));
    click(menu.get('Emulator > Open UI in Browser'));
    click(menu.get('Emulator > Copy Base URL'));
    click(menu.get('Emulator > Reset to Fixture…'));
    click(menu.get('Emulator > Quit CMS Emulator'));
    await vi.waitFor(() => expect(deps.emulator.reset).toHaveBeenCalled());
    expect(deps.shell.openPath).toHaveBeenCalledWith('/home/me/.config/CMS Emulator/data');
    expect(deps.shell.openExternal).toHaveBeenCalledWith('http://127.0.0.1:4321/__emulator/ui/');
    expect(deps.clipboard.writeText).toHaveBeenCalledWith('http://127.0.0.1:4321/v2');
    expect(deps.quit).toHaveBeenCalled();
  });
});

describe('shellActions', () => {
  it('reports a data folder the system cannot open', async () => {
    const shell = { ...fakeShell(), openPath: vi.fn(() => Promise.resolve('No application is associated')) };
    const { deps, actions } = setUp({ shell });
    await actions.openDataFolder();
    expect(deps.showError).toHaveBeenCalledWith('Cannot open the data folder', expect.stringContaining('No application is associated'));
  });

  it('resets only when the user confirms', async () => {
    const declined = setUp({ confirm: vi.fn(() => Promise.resolve(false)) });
    await declined.actions.resetToFixture();
    expect(declined.deps.confirm).toHaveBeenCalledWith(
      'Reset the data to the fixture?',
      expect.stringContaining('/home/me/.config/CMS Emulator/data'),
    );
    expect(declined.deps.emulator.reset).not.toHaveBeenCalled();

    const confirmed = setUp();
    await confirmed.actions.resetToFixture();
    expect(confirmed.deps.emulator.reset).toHaveBeenCalledOnce();
  });

  it('shows a failed reset instead of throwing', async () => {
    const { deps, actions } = setUp();
    deps.emulator.reset.mockRejectedValueOnce(new Error('fixture has no data.json'));
    await actions.resetToFixture();
    expect(deps.showError).toHaveBeenCalledWith('Reset failed', 'fixture has no data.json');
  });

  it('opens only http(s) addresses in the browser and copies text as given', () => {
    const { deps, actions } = setUp();
    actions.openInBrowser('http://127.0.0.1:4321/v2/');
    actions.openInBrowser('file:///etc/passwd');
    actions.copyText('acme-write-2d8e4b6f1c');
    expect(deps.shell.openExternal.mock.calls).toEqual([['http://127.0.0.1:4321/v2/']]);
    expect(deps.clipboard.writeText).toHaveBeenCalledWith('acme-write-2d8e4b6f1c');
  });
});

describe('dialogConfirm', () => {
  it('asks with Cancel as the default and reads the answer', async () => {
    const showMessageBox = vi.fn((_options: object) => Promise.resolve({ response: 0, checkboxChecked: false }));
    expect(await dialogConfirm(showMessageBox)('Reset?', 'details')).toBe(true);
    expect(showMessageBox).toHaveBeenCalledWith(
      expect.objectContaining({ message: 'Reset?', detail: 'details', defaultId: 1, cancelId: 1 }),
    );
    showMessageBox.mockResolvedValueOnce({ response: 1, checkboxChecked: false });
    expect(await dialogConfirm(showMessageBox)('Reset?', 'details')).toBe(false);
  });
});
