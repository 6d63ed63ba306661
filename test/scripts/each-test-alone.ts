// Runs every test of the suite alone (its file's hooks, and no other test), to find tests that pass only after
// another one ran. One Vitest instance runs them one by one, each in a fresh worker.
// Run: npx tsx test/scripts/each-test-alone.ts [file filters...]
// Replay one failure with the command it prints: npx vitest run FILE --config test/vitest.config.ts -t '^NAME$'
import { relative } from 'node:path';
import { createVitest, type TestModule } from 'vitest/node';

const filters = process.argv.slice(2);
const vitest = await createVitest('test', {
  config: 'test/vitest.config.ts',
  watch: false,
  reporters: [{}],
  sequence: { shuffle: false },
});

const listed = await vitest.collect(filters);
const tests = listed.testModules.flatMap((module) =>
  [...module.children.allTests()].map((test) => ({ file: module.moduleId, name: test.fullName })),
);
console.log(`${tests.length} tests in ${listed.testModules.length} files, each run alone`);

const failures: { file: string; name: string; why: string }[] = [];
for (const [i, { file, name }] of tests.entries()) {
  // Vitest matches the pattern against the names of the describes and the test, joined by spaces.
  const pattern = new RegExp(`^${escapeRegExp(name.split(' > ').join(' '))}$`);
  const spec = vitest.getProjectByName('').createSpecification(file, { testNamePattern: pattern });
  const { testModules, unhandledErrors } = await vitest.runTestSpecifications([spec]);
  // The result lists every file this instance has run so far: take the one just run.
  const why = whyNot(
    testModules.find((m) => m.moduleId === file),
    name,
    unhandledErrors,
  );
  if (why) {
    failures.push({ file, name, why });
    console.log(`FAIL ${relative('.', file)} > ${name}\n  ${why}`);
  }
  if ((i + 1) % 20 === 0) console.log(`${i + 1}/${tests.length}`);
}
await vitest.close();

console.log(`\n${tests.length} tests run alone: ${tests.length - failures.length} passed, ${failures.length} failed`);
for (const { file, name } of failures)
  console.log(
    `npx vitest run ${relative('.', file)} --config test/vitest.config.ts ` +
      `-t ${quote(`^${escapeRegExp(name.split(' > ').join(' '))}$`)}`,
  );
process.exit(failures.length ? 1 : 0);

/** Why the run is not that one test passed, alone, in a file whose hooks all passed; `undefined` when it is. */
function whyNot(module: TestModule | undefined, name: string, unhandled: readonly unknown[]): string | undefined {
  if (!module) return 'the file did not run';
  const tests = [...module.children.allTests()];
  const ran = tests.filter((t) => t.result().state !== 'skipped').map((t) => t.fullName);
  const errors = [
    ...module.errors(),
    ...tests.flatMap((t) => t.result().errors ?? []),
    ...(unhandled as { message?: string }[]),
  ].map((e) => e.message?.split('\n')[0] ?? String(e));
  const passed = tests.find((t) => t.fullName === name)?.result().state === 'passed';
  if (passed && ran.length === 1 && errors.length === 0) return undefined;
  return `${passed ? 'passed' : 'did not pass'}; ran ${ran.length} test(s); ${errors.join(' | ')}`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function quote(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}
