// Vitest's global setup: the whole run writes its temporary files (every test's mkdtemp, the servers and CLIs it
// starts) into one folder of its own, removed when the run ends. The suites made some 200 folders under the
// system's temporary folder per run, and never removed them. Set before any worker starts: workers and the
// processes they spawn inherit TMPDIR, and os.tmpdir() reads it on every call.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function ownTmpdir(): () => void {
  const previous = process.env.TMPDIR;
  const folder = mkdtempSync(join(tmpdir(), 'membership-mock-tests-'));
  // Open to every user as the system's temporary folder is (mkdtemp makes it the owner's alone): a test run as
  // root starts a mock as nobody (persistence.test.ts), which must reach the files made for it here.
  chmodSync(folder, 0o1777);
  process.env.TMPDIR = folder;
  return () => {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
    rmSync(folder, { recursive: true, force: true, maxRetries: 3 });
  };
}
