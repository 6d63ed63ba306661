#!/usr/bin/env node
// The command line's entry: Node's compile cache on first, then the command line itself (cli/main.ts). From
// Node 22.1, the code Node compiles for the mock and its packages is kept on disk (in the system's temporary
// folder, node-compile-cache) and the next start reads it back instead of compiling again; Node 20 has no such
// cache and starts as before. NODE_DISABLE_COMPILE_CACHE=1 turns it off, as for any Node program.
import module from 'node:module';

(module as { enableCompileCache?: () => unknown }).enableCompileCache?.();
await import('./cli/main.js');
