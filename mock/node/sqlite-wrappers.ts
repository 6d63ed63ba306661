// better-sqlite3 12 wraps each database, statement and iterator in Node's node::ObjectWrap. Built against Node
// 24's headers, that class removes an environment cleanup hook in its destructor, which Node refuses when the
// garbage collector destroys it outside a JavaScript context: the process aborts ("Assertion failed: (env) !=
// nullptr", in Statement::~Statement or Database::~Database), at any collection after one became garbage. So no
// wrapper of ours is ever left to the collector: each database and statement is kept until the process ends,
// where Node's cleanup deletes them as it should (a few hundred bytes per state file opened; SQLite's own
// resources are freed at close, as before), and no iterator is made (`all`, never `iterate`). Node 20 and 22
// are not concerned, and better-sqlite3 13 (no ObjectWrap) would not be, but it does not run on Node 20.
import type { Database, Statement } from 'better-sqlite3';

const KEPT = Symbol.for('membership-mock.sqlite-wrappers');

/** Every wrapper made, for the life of the process: one set, however many times a test runner loads this module. */
const kept = ((globalThis as { [KEPT]?: Set<object> })[KEPT] ??= new Set<object>());

/** Keeps `wrapper` (a database or a statement) from the garbage collector until the process ends. */
export function keepWrapper<T extends object>(wrapper: T): T {
  kept.add(wrapper);
  return wrapper;
}

/** A statement of `db`, kept (see keepWrapper). */
export function prepareKept(db: Database, sql: string): Statement {
  return keepWrapper(db.prepare(sql));
}

/** The first column of a pragma's first row (`db.pragma(…, { simple: true })`, whose statement is not kept). */
export function readPragma(db: Database, pragma: string): unknown {
  return prepareKept(db, `PRAGMA ${pragma}`).pluck().get();
}
