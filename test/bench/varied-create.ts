// The varied create of the bench: POSTs to many members with distinct, valid bodies. Shared by bench.ts and
// profile-route.ts, so that a profile is taken under exactly the load the bench measures.

import { mulberry32 as seeded } from '../../mock/generate/quick-draw.js';

/** How many members the creates cycle over (`mbr_bench0` … `mbr_bench999`). */
export const MEMBERS = 1000;

const KINDS = ['pin', 'card', 'mobile'];
const WORDS = [
  'Front',
  'desk',
  'PIN',
  'Work',
  'phone',
  'gym',
  'locker',
  'Büro',
  'カード',
  'spare',
  'main',
  'door',
  'B2',
];

/**
 * The n-th body of the varied create: each valid for the contract's CredentialCreate (`kind` required, one of
 * pin/card/mobile; `label` optional, 1–100 characters; nothing else), and nearly all distinct, so no memo
 * keyed on the body can answer them. Labels are left out, short, long (up to 100 characters) or non-ASCII,
 * and the key order varies.
 */
function credentialBody(n: number, random: () => number): string {
  const kind = KINDS[n % KINDS.length]!;
  const shape = Math.floor(random() * 4);
  if (shape === 0) return JSON.stringify({ kind });
  const words = Array.from({ length: 1 + Math.floor(random() * 12) }, () => WORDS[Math.floor(random() * WORDS.length)]);
  const label = `${words.join(' ')} ${n}`.slice(-100);
  return shape === 1 ? JSON.stringify({ label, kind }) : JSON.stringify({ kind, label });
}

/** One sequence of varied creates: the same requests, in the same order, every time it is made. */
export interface CreateSequence {
  /** The next request: `/members/mbr_bench<n mod members>/credentials` and the n-th body. */
  next(): { path: string; body: string };
  /** How many requests were taken from the sequence so far. */
  readonly taken: number;
  /** How many members no request has gone to yet. */
  readonly unseen: number;
}

/** A new sequence over `members` members (more members than requests makes every create a first-seen one). */
export function createSequence(members = MEMBERS): CreateSequence {
  const random = seeded(10);
  let n = 0;
  return {
    next() {
      const i = n++;
      return { path: `/members/mbr_bench${i % members}/credentials`, body: credentialBody(i, random) };
    },
    get taken() {
      return n;
    },
    get unseen() {
      return Math.max(0, members - n);
    },
  };
}
