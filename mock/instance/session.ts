// A test session: its journal, state, overrides and counters. Requests name theirs with `X-Mock-Session`.
import type { WireText } from '../http/reply.js';
import type { JsonObject } from '../schema/schema-facts.js';
import { Journal, type CallListener } from '../journal/journal.js';
import type { JournalBudget } from '../journal/journal-budget.js';
import { BoundedMemo, BoundedTrieMemo } from '../lib/bounded-memo.js';
import type { Override } from '../respond/overrides.js';
import { countOf } from '../respond/counters.js';
import { MemoryStore, type DerivePlaceholders, type Store, type StoreLimits } from '../state/store.js';

/**
 * What one test session sees. The unnamed session `''` is the default one, and the only one persisted.
 */
export interface Session {
  name: string;
  journal: Journal;
  store: Store;
  overrides: Override[];
  /**
   * Counters that make answers differ and repeat: requests (each rolls its faults), creates per operation
   * (each draws a new body), seed-clock ticks. A reset restarts them all.
   */
  counters: Map<string, number>;
  /** The time a record is created at (see the `clock` option). */
  now(): Date;
  /** List pages made from this session's store, by operation, page, collection and version: reused until it changes. */
  pages: BoundedTrieMemo<JsonObject>;
  /**
   * The JSON text of records read lately, by path, with the record it was made from (sent again while it is the same).
   */
  recordTexts: BoundedMemo<{ record: object; wire: WireText }>;
}

/** Pages kept per session: a handful of lists and members a front-end reads again and again. */
const PAGES = 256;
/**
 * Records those pages may hold in all (each page is also kept as its JSON text): a hostile client asking
 * for `limit=1000` pages of many members would otherwise keep megabytes per session.
 */
const PAGE_RECORDS = 250;
/**
 * Texts of records read kept per session, and their weight in all: twice their characters, for the UTF-8 bytes a
 * server keeps with each for the wire. A front-end reads the same few records again and again, while every
 * record keeping its text would double what a full state costs.
 */
const RECORD_TEXTS = 1024;
const RECORD_TEXT_WEIGHT = 524_288;

const SEED_CLOCK = '\u0000seed-clock';

/**
 * How to make a session: where its calls are numbered, how many it keeps and in what budget, its state's limits, and
 * its clock.
 */
export interface SessionSettings {
  journalLimit: number;
  /** The byte budget every session's journal shares. */
  journalBudget: JournalBudget;
  /** Longest body text a journal keeps. */
  journalBodyLimit: number;
  stateLimits: StoreLimits;
  nextCallNumber: () => number;
  /** `system`: the wall clock; otherwise created records get `start` plus one minute per record. */
  clock: 'system' | { start: Date };
  /** The store to use (the state file's); a new memory store within `stateLimits` otherwise. */
  store?: Store | undefined;
  /** Where the store finds placeholders (see PlaceholderSource). */
  derive: DerivePlaceholders;
  /** Hears every call its journal records (see JournalSettings.observe). */
  observe?: CallListener;
}

/** Makes a session, empty unless given a store (the caller restores the initial state into a new one). */
export function createSession(name: string, settings: SessionSettings): Session {
  const { journalLimit, journalBudget, journalBodyLimit, stateLimits, nextCallNumber, clock, store, observe, derive } =
    settings;
  const counters = new Map<string, number>();
  const session: Session = {
    name,
    journal: new Journal(journalLimit, {
      nextNumber: nextCallNumber,
      budget: journalBudget,
      bodyLimit: journalBodyLimit,
      observe,
    }),
    store: store ?? new MemoryStore(stateLimits),
    overrides: [],
    counters,
    now: () => new Date(),
    pages: new BoundedTrieMemo(PAGES, 4096, PAGE_RECORDS),
    recordTexts: new BoundedMemo(RECORD_TEXTS, 1024, RECORD_TEXT_WEIGHT),
  };
  session.store.usePlaceholders(derive);
  if (clock !== 'system') {
    session.now = () => {
      const ticks = countOf(session, SEED_CLOCK) + 1;
      counters.set(SEED_CLOCK, ticks);
      return new Date(clock.start.getTime() + ticks * 60_000);
    };
  }
  return session;
}

export { countOf, REQUESTS } from '../respond/counters.js';
