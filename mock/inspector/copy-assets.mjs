// Part of `npm run build`: the inspector's page and assets are not TypeScript, so tsc leaves them behind;
// copied beside the compiled admin API (dist/mock/inspector/assets), which serves them from there.
import { cpSync, rmSync } from 'node:fs';

const from = new URL('./assets/', import.meta.url);
const to = new URL('../../dist/mock/inspector/assets/', import.meta.url);
// A file deleted from the source must not linger in dist and ship.
rmSync(to, { recursive: true, force: true });
cpSync(from, to, { recursive: true });
