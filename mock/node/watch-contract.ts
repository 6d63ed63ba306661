// Watches a contract file and hands over each version that loads; a broken edit is reported, not served.
import { watch } from 'node:fs';
import { basename, dirname } from 'node:path';
import { loadContract, type Contract } from './load-contract.js';

/**
 * Calls `onReload` with the new contract after each change that parses, `onError` after one that does not.
 * The folder is watched, not the file, so editors that save by renaming are seen too.
 * @returns a function that stops watching
 */
export function watchContract(
  path: string,
  onReload: (contract: Contract) => void,
  onError: (error: Error) => void,
  delayMs = 100,
): () => void {
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const name = basename(path);
  const watcher = watch(dirname(path), (_event, file) => {
    if (file !== name || stopped) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      loadContract(path).then(
        (contract) => !stopped && onReload(contract),
        (error: Error) => !stopped && onError(error),
      );
    }, delayMs);
  });
  watcher.on('error', (error) => onError(error));
  return () => {
    stopped = true;
    clearTimeout(timer);
    watcher.close();
  };
}
