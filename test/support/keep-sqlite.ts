// The tests' own better-sqlite3 objects (a database a test opens to look into a state file) are kept from the
// garbage collector as the mock's are (mock/node/sqlite-wrappers.ts): on Node 24, better-sqlite3 12 aborts the
// process when the collector frees one. A setup file, so a test written without keepWrapper cannot abort a
// worker by chance on 24; on Node 20 and 22 it changes nothing but what is kept.
import Database from 'better-sqlite3';
import { keepWrapper } from '../../mock/node/sqlite-wrappers.js';

type Db = Database.Database;
const proto = Database.prototype as Db;
const { prepare, exec, close } = proto;

proto.prepare = function (this: Db, source: string) {
  keepWrapper(this);
  return keepWrapper(prepare.call(this, source));
} as Db['prepare'];
proto.exec = function (this: Db, source: string) {
  return exec.call(keepWrapper(this), source);
};
proto.close = function (this: Db) {
  return close.call(keepWrapper(this));
};
// better-sqlite3's own pragma() makes a statement nobody can keep: the same through a kept one.
proto.pragma = function (this: Db, source: string, options: { simple?: boolean } = {}) {
  const statement = this.prepare(`PRAGMA ${source}`);
  if (!statement.reader) return (statement.run(), options.simple ? undefined : []);
  return options.simple ? statement.pluck().get() : statement.all();
} as Db['pragma'];
