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

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'renderer/dist/**', '.cms-emulator/**'] },
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
);
