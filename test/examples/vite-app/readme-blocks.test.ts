// The README's quick start and the MSW doc's Storybook recipe show this app's files as they are: a block that names
// one of them (`// src/App.test.tsx:` on its first lines) must be that file, whole, so neither can drift from what
// `npm test` runs.
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const APP = fileURLToPath(new URL('.', import.meta.url));
const README = readFileSync(fileURLToPath(new URL('../../../README.md', import.meta.url)), 'utf8');
const MSW_DOC = readFileSync(fileURLToPath(new URL('../../../mock/docs/msw.md', import.meta.url)), 'utf8');

/** A document's code blocks that name a file of this app, with that file's path. */
const shownIn = (markdown: string) =>
  [...markdown.matchAll(/^```\w*\n([\s\S]*?)^```$/gm)].flatMap(([, code]) => {
    const named = /^\/\/ ([\w./-]+\.tsx?):/m.exec(code!.split('\n').slice(0, 2).join('\n'))?.[1];
    return named !== undefined && existsSync(`${APP}${named}`) ? [{ file: named, code: code! }] : [];
  });
const shown = shownIn(README);
const recipe = shownIn(MSW_DOC);

test('the quick start shows the app’s Vite config and component test', () => {
  expect(shown.map((block) => block.file).sort()).toEqual(['src/App.test.tsx', 'vite.config.ts']);
});

test.each(shown)('the README’s $file is the file itself', ({ file, code }) => {
  expect(code).toBe(readFileSync(`${APP}${file}`, 'utf8'));
});

test('the Storybook recipe shows the preview and the stories e2e/storybook.test.ts runs', () => {
  expect(recipe.map((block) => block.file).sort()).toEqual(['.storybook/preview.tsx', 'src/Passes.stories.tsx']);
});

test.each(recipe)('the MSW doc’s $file is the file itself', ({ file, code }) => {
  expect(code).toBe(readFileSync(`${APP}${file}`, 'utf8'));
});
