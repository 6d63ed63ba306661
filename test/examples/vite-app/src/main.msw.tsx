// src/main.msw.tsx: the app with no server behind it (msw.html): the contract's MSW handlers answer its API in the
// page, through MSW's service worker. The contract and the worker (mockServiceWorker.js, from `npx msw init`) are
// files of the dev server's public folder. State lives in this page's memory: a reload starts again from the seed.
import { setupWorker } from 'msw/browser';
import { createHandlers } from 'membership-mock/msw/browser';
import type { operations } from 'membership-mock/contracts/membership';
import { createRoot } from 'react-dom/client';
import { createApi } from './api';
import { App } from './App';

const mock = await createHandlers<operations>({ contract: '/openapi.yaml', seed: 1 });
// Paths the contract does not have (the app's own files) go to the dev server.
await setupWorker(...mock.handlers).start({ onUnhandledRequest: 'bypass', quiet: true });
// The page's journal, for a test driving the page (e2e/msw-worker.test.ts): window.mock.calls(), ...
Object.assign(window, { mock });

createRoot(document.getElementById('root')!).render(<App api={createApi()} memberId="mbr_1" />);
