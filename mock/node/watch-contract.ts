// Watches a contract's file, and the files its references read, and hands over each version that loads; a broken
// edit is reported, not served.
import { watch, type FSWatcher } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { loadContract, type Contract } from './load-contract.js';

/**
 * Calls `onReload` with the new contract after each change that parses, `onError` after one that does not. The
 * contract's own file is watched, and the local files its `$ref`s read (`contract.files`): after each reload, those
 * of the new version. Folders are watched, not files, so editors that save by renaming are seen too.
 * @returns a function that stops watching
 */
export function watchContract(
  contract: Pick<Contract, 'source' | 'files'>,
  onReload: (contract: Contract) => void,
  onError: (error: Error) => void,
  delayMs = 100,
): () => void {
  const path = contract.source;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const watchers = new Map<string, FSWatcher>();
  let names = new Set<string>();
  const reload = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      loadContract(path).then(
        (next) => {
          if (stopped) return;
          follow(next.files ?? []);
          onReload(next);
        },
        (error: Error) => !stopped && onError(error),
      );
    }, delayMs);
  };
  /** Watches the folders of the contract and of `files`, and no other. */
  const follow = (files: readonly string[]) => {
    names = new Set([path, ...files].map((file) => resolve(file)));
    const folders = new Set([...names].map((name) => dirname(name)));
    for (const [folder, watcher] of watchers) {
      if (folders.has(folder)) continue;
      watcher.close();
      watchers.delete(folder);
    }
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      let watcher: FSWatcher;
      try {
        watcher = watch(folder, (_event, file) => {
          if (!stopped && file !== null && names.has(join(folder, file))) reload();
        });
      } catch (error) {
        // A folder gone since (a referred file's): the others are still watched.
        onError(error as Error);
        continue;
      }
      watcher.on('error', (error) => onError(error));
      watchers.set(folder, watcher);
    }
  };
  follow(contract.files ?? []);
  return () => {
    stopped = true;
    clearTimeout(timer);
    for (const watcher of watchers.values()) watcher.close();
  };
}
