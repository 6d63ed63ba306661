// Lines of at most 120 columns (Prettier's width), but for strings, template literals and regular expressions,
// which cannot break: `npm run lint:lines`, part of `npm test`. Prettier formats; this catches the comments and
// code Prettier leaves long.
import tseslint from 'typescript-eslint';

export default [
  { ignores: ['dist/**', 'node_modules/**', 'reports/**', 'coverage/**', '.stryker-tmp/**', 'contracts/**'] },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.mjs', '**/*.js', '**/*.cjs'],
    languageOptions: { parser: tseslint.parser, ecmaVersion: 'latest', sourceType: 'module' },
    // The plugin's rules are known, so the comments that turn some off where TypeScript needs it stay valid.
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'off' },
    rules: {
      'max-len': [
        'error',
        {
          code: 120,
          ignoreStrings: true,
          ignoreTemplateLiterals: true,
          ignoreRegExpLiterals: true,
          ignoreUrls: true,
        },
      ],
    },
  },
];
