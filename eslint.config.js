// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** Architecture boundaries (ARCHITECTURE.md, convention 2), enforced rather than hoped for. */
const domainBoundary = {
  files: ['server/domain/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          { group: ['express', 'express/*'], message: 'domain/ is pure: no express.' },
          { group: ['lowdb', 'lowdb/*'], message: 'domain/ is pure: no lowdb.' },
          { group: ['**/http/*', '**/api/*', '**/store/store*', '**/jobs/*'], message: 'domain/ depends on nothing but the store schema.' },
          { group: ['electron', '**/renderer/**', '**/electron/**'], message: 'server/ never imports Electron or the UI.' },
        ],
      },
    ],
  },
};

const serverBoundary = {
  files: ['server/**/*.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      { patterns: [{ group: ['electron', '**/renderer/**', '**/electron/**'], message: 'server/ never imports Electron or the UI.' }] },
    ],
  },
};

/**
 * The desktop shell (issue 9): it hosts the server through its public entry and loads the UI over
 * HTTP, so it imports neither server internals nor renderer/. Only main.ts (and the preload) may
 * import Electron's values; every other module takes Electron's objects as arguments, so unit
 * tests run without the binary.
 */
const electronImports = [
  { group: ['**/renderer/**'], message: 'electron/ never imports the UI: the window loads it over HTTP from the emulator.' },
  { group: ['**/server/**', '!**/server/index.js'], message: 'electron/ uses the public API of server/ (server/index.js) only.' },
];
const electronBoundary = {
  files: ['electron/**/*.ts', 'electron/**/*.cts'],
  rules: { 'no-restricted-imports': ['error', { patterns: electronImports }] },
};
const electronTestable = {
  files: ['electron/**/*.ts'],
  ignores: ['electron/main.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: [
          {
            name: 'electron',
            allowTypeImports: true,
            message: 'Take Electron objects as arguments (main.ts wires them): unit tests run without the binary.',
          },
        ],
        patterns: electronImports,
      },
    ],
  },
};

/** The renderer talks to the server over HTTP only: from server/ it may import types, nothing else. */
const rendererBoundary = {
  files: ['renderer/src/**/*.{ts,tsx}'],
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['**/server/**'],
            allowTypeImports: true,
            message: 'renderer/ imports only types from server/: it talks to it over HTTP.',
          },
          { group: ['electron', '**/electron/**', 'node:*'], message: 'renderer/ is a web page: no Electron, no Node.' },
        ],
      },
    ],
  },
};

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', '.cms-emulator/**', 'bench/.build/**'] },
  js.configs.recommended,
  ...tseslint.configs.strict,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  serverBoundary,
  domainBoundary,
  electronBoundary,
  electronTestable,
  rendererBoundary,
);
