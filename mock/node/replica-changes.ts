// What one replica changed in the state it shares with the others, as data to publish, and how a replica applies
// what another published: records put, deleted and restored; calls kept, journals cleared, sessions dropped;
// counters, overrides and faults as they stand after a section; in a snapshot, the last call number too.
import type { Faults } from '../respond/faults.js';
import type { Override } from '../respond/overrides.js';
import type { Kept } from '../journal/journal.js';
import type { Session } from '../instance/session.js';
import {
  dropSession,
  resetSession,
  restoreState,
  sessionOf,
  sessionsByUse,
  type MockContext,
} from '../instance/mock-context.js';
import type { DerivePlaceholders, Store, StoredRecord, StoreInfo, StoreSnapshot } from '../state/store.js';

/** One change, named by its session (`s`) where it belongs to one. */
export type Change =
  | { s: string; k: 'put'; c: string; id: string; r: StoredRecord }
  | { s: string; k: 'delete'; c: string; id: string }
  | { s: string; k: 'restore'; snapshot: StoreSnapshot; charged: boolean }
  | { s: string; k: 'call'; call: Kept }
  | { s: string; k: 'clear' }
  | { s: string; k: 'drop' }
  | { s: string; k: 'steering'; counters: [string, number][]; overrides: Override[] }
  | { k: 'faults'; faults: Faults }
  | { k: 'numbered'; calls: number };

/**
 * Watches a mock's sessions for changes while a section runs (`take` hands them over), and applies changes other
 * replicas published (`apply`) without taking them as its own.
 */
export class ReplicaChanges {
  #changes: Change[] = [];
  #applying = false;
  /** Each session's counters and overrides as last published or applied, as JSON. */
  #steering = new Map<string, string>();
  #faults: string;
  /**
   * The highest call number this replica's listeners (waits, coverage, the Pact, onCall) heard: a call applied
   * again (after a forget, from a snapshot) is kept without their hearing it twice.
   */
  #heard = 0;
  /** The highest call number published or applied: a forget takes `#heard` back to it (see forget). */
  #settled = 0;
  /** `#heard` as the last take found it: settled once what was taken is published. */
  #taken = 0;

  constructor(
    readonly context: MockContext,
    /** How the shared store is doing, for health (see StoreInfo). */
    readonly health: () => Partial<StoreInfo>,
  ) {
    context.sessionMade = (session) => this.#watch(session);
    for (const session of context.sessions.values()) this.#watch(session);
    this.#faults = JSON.stringify(context.faults);
  }

  /** What changed since the last take: the changes seen, then counters, overrides and faults that differ. */
  take(): Change[] {
    const changes = this.#changes;
    this.#changes = [];
    for (const session of sessionsByUse(this.context)) {
      const now = steeringOf(session);
      if (this.#steering.get(session.name) === now) continue;
      this.#steering.set(session.name, now);
      changes.push({ s: session.name, k: 'steering', ...(JSON.parse(now) as SteeringJson) });
    }
    const faults = JSON.stringify(this.context.faults);
    if (faults !== this.#faults) changes.push({ k: 'faults', faults: this.context.faults });
    this.#faults = faults;
    this.#taken = this.#heard;
    return changes;
  }

  /** What the last take handed over was published: its calls are settled. */
  published(): void {
    this.#settled = Math.max(this.#settled, this.#taken);
  }

  /** Everything this replica's copy holds, as changes that make it again from a replica that starts. */
  snapshot(): Change[] {
    const changes: Change[] = [];
    for (const session of sessionsByUse(this.context)) {
      const s = session.name;
      changes.push({ s, k: 'restore', snapshot: session.store.snapshot(), charged: false });
      for (const call of session.journal.keptCalls()) changes.push({ s, k: 'call', call });
      changes.push({ s, k: 'steering', ...(JSON.parse(steeringOf(session)) as SteeringJson) });
    }
    changes.push({ k: 'faults', faults: this.context.faults });
    // After a reset the journals hold no call: the number goes on all the same (call ids never go back).
    changes.push({ k: 'numbered', calls: this.context.lastCallNumber() });
    return changes;
  }

  /** Forgets this replica's copy, and what it changed but did not publish: every session as it started. */
  forget(): void {
    const { context } = this;
    this.quietly(() => {
      for (const name of [...context.sessions.keys()]) dropSession(context, name);
      resetSession(context, context.sessions.get('')!);
      context.faults = context.options.faults;
    });
    this.#changes = [];
    // Calls heard here but never published were this replica's alone: another's of the same number is heard.
    this.#heard = this.#settled;
  }

  /** Applies what another replica published, in its order. */
  apply(changes: Change[]): void {
    this.quietly(() => {
      for (const change of changes) this.#applyOne(change);
    });
  }

  /** Runs `action` without taking what it changes as this replica's own. */
  quietly(action: () => void): void {
    this.#applying = true;
    try {
      action();
    } finally {
      this.#applying = false;
    }
    for (const session of this.context.sessions.values()) this.#steering.set(session.name, steeringOf(session));
    this.#faults = JSON.stringify(this.context.faults);
  }

  #applyOne(change: Change): void {
    const { context } = this;
    if (change.k === 'faults') return void (context.faults = change.faults);
    if (change.k === 'drop') return dropSession(context, change.s);
    if (change.k === 'numbered') return context.seeCallNumber(change.calls);
    const session = sessionOf(context, change.s);
    switch (change.k) {
      case 'put':
        return void session.store.put(change.c, change.id, change.r);
      case 'delete':
        return void session.store.delete(change.c, change.id);
      case 'restore':
        return void restoreState(context, session, change.snapshot, change.charged);
      case 'call': {
        const { number } = change.call;
        context.seeCallNumber(number);
        session.journal.adopt(change.call, number > this.#heard);
        this.#heard = Math.max(this.#heard, number);
        this.#settled = Math.max(this.#settled, number);
        return;
      }
      case 'clear':
        return session.journal.clear();
      case 'steering':
        session.counters.clear();
        for (const [name, count] of change.counters) session.counters.set(name, count);
        session.overrides.splice(0, session.overrides.length, ...change.overrides);
    }
  }

  /** Sees what a session's store and journal do, from now on. */
  #watch(session: Session): void {
    const s = session.name;
    const note = (change: Change) => {
      if (!this.#applying) this.#changes.push(change);
    };
    this.#steering.set(s, steeringOf(session));
    session.store = new WatchedStore(session.store, s, note, this.health);
    session.journal.share({
      kept: (call) => {
        this.#heard = Math.max(this.#heard, call.number);
        note({ s, k: 'call', call });
      },
      cleared: () => note({ s, k: 'clear' }),
      closed: () => {
        this.#steering.delete(s);
        note({ s, k: 'drop' });
      },
    });
  }
}

interface SteeringJson {
  counters: [string, number][];
  overrides: Override[];
}

function steeringOf(session: Session): string {
  return JSON.stringify({ counters: [...session.counters], overrides: session.overrides });
}

/** A store, with each change it takes noted (a change it refuses is none); the rest goes to it as it is. */
class WatchedStore implements Store {
  constructor(
    readonly inner: Store,
    readonly s: string,
    readonly note: (change: Change) => void,
    readonly health: () => Partial<StoreInfo>,
  ) {}
  get limits() {
    return this.inner.limits;
  }
  usePlaceholders(derive: DerivePlaceholders): void {
    this.inner.usePlaceholders(derive);
  }
  get(c: string, id: string) {
    return this.inner.get(c, id);
  }
  list(c: string) {
    return this.inner.list(c);
  }
  count(c: string) {
    return this.inner.count(c);
  }
  position(c: string, id: string) {
    return this.inner.position(c, id);
  }
  put(c: string, id: string, r: StoredRecord) {
    const outcome = this.inner.put(c, id, r);
    if (outcome === 'stored') this.note({ s: this.s, k: 'put', c, id, r });
    return outcome;
  }
  delete(c: string, id: string) {
    const outcome = this.inner.delete(c, id);
    if (outcome === 'deleted') this.note({ s: this.s, k: 'delete', c, id });
    return outcome;
  }
  version(c: string) {
    return this.inner.version(c);
  }
  usage() {
    return this.inner.usage();
  }
  snapshot() {
    return this.inner.snapshot();
  }
  collections() {
    return this.inner.collections();
  }
  restore(snapshot: StoreSnapshot, idOf: (c: string, r: StoredRecord) => string, charged = false) {
    const outcome = this.inner.restore(snapshot, idOf, charged);
    if (outcome === 'stored') this.note({ s: this.s, k: 'restore', snapshot, charged });
    return outcome;
  }
  info(): StoreInfo {
    return { ...this.inner.info(), ...this.health(), kind: 'redis' };
  }
  close(): void {
    this.inner.close();
  }
}
