// Notices that the process that started the mock is gone, for a mock started by an npm script.

/**
 * Calls `onGone` once the parent process has exited (the process is handed to another parent: `ppid` changes),
 * checking every `everyMs` without keeping the process alive.
 *
 * Why: `npm start &` then `kill $!` signals npm, which passes the signal to the shell that runs the script, and
 * that shell dies without passing it on: the mock would go on serving, its port taken, with no parent. Node
 * cannot ask the kernel to be told (Linux's PR_SET_PDEATHSIG), and the script's stdin is the terminal's, not a
 * pipe that closes; polling the parent's id is cheap and works wherever Node runs.
 * @returns a function that stops watching
 * @example if (process.env.npm_lifecycle_event) watchParent(() => stop('the npm process exited'));
 */
export function watchParent(onGone: () => void, everyMs = 500): () => void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    onGone();
  }, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}
