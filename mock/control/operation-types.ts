// Types of a contract's operations for the test API, from openapi-typescript's `operations` interface
// (`npx openapi-typescript contract.yaml -o api.d.ts`): with them, `startMock<operations>()` checks the
// operationIds, path parameters and bodies a test names in `calls`, `waitForCall`, `override` and the
// matchers. Without them every operationId is a string and every body `unknown`, as before. Types only:
// nothing here exists at run time.
import type { CallFilter, CallRecord } from '../journal/journal.js';
import type { CallMatch } from '../journal/call-match.js';
import type { Override, OverrideSpec } from '../respond/overrides.js';

/** The operations of a contract no types were given for: any operationId, any body. */
export interface UntypedOperations {
  [operationId: string]: unknown;
}

/**
 * Carries a mock's operation types, so the matchers can read them from the mock they are given. It is
 * never set: a key of the types alone.
 */
export declare const operationTypes: unique symbol;

/** Something that carries operation types: a mock. */
export interface Typed<Ops> {
  /** Never set: the operation types, for the matchers to read. */
  readonly [operationTypes]?: Ops;
}

/** The operation types a mock carries, or none. */
export type OperationsOf<T> =
  T extends Typed<infer Ops> ? (unknown extends Ops ? UntypedOperations : Ops) : UntypedOperations;

type IsTyped<Ops> = string extends keyof Ops ? false : true;

/** One operation's types, by operationId. */
export type OperationOf<Ops, Id> = Id extends keyof Ops ? Ops[Id] : unknown;

/** The operationIds a test may name: the contract's, or any string when untyped. */
export type OperationId<Ops> = IsTyped<Ops> extends true ? Extract<keyof Ops, string> : string;

type Parameters<Op, In extends 'path' | 'query'> = Op extends { parameters: infer P }
  ? P extends { [K in In]?: infer Given }
    ? NonNullable<Given>
    : never
  : never;

type ContentOf<Body> = Body extends { content: infer Content } ? Content[keyof Content] : never;

/** A request body as the contract describes it (every media type's). */
export type RequestBodyOf<Op> = Op extends { requestBody?: infer Body } ? ContentOf<NonNullable<Body>> : unknown;

type Responses<Op> = Op extends { responses: infer R } ? R : Record<never, never>;

/** The statuses an override may name: the documented ones, or any number when a range or `default` is. */
export type StatusOf<Op> = unknown extends Op
  ? number
  : Exclude<keyof Responses<Op>, number> extends never
    ? Extract<keyof Responses<Op>, number>
    : number;

/** The body of a response, by status; every documented body when the status is not given. */
export type ResponseBodyOf<Op, Status> = [Status] extends [never]
  ? ContentOf<Responses<Op>[keyof Responses<Op>]>
  : Status extends keyof Responses<Op>
    ? ContentOf<Responses<Op>[Status]>
    : ContentOf<Responses<Op>[keyof Responses<Op>]>;

/** Each field optional, at every depth (a partial match). */
export type DeepPartial<T> = T extends readonly (infer Item)[]
  ? DeepPartial<Item>[]
  : T extends object
    ? { [K in keyof T]?: DeepPartial<T[K]> }
    : T;

/** A recorded call of one operation, its path parameters, query and body typed as the contract says. */
export type TypedCall<Ops, Id> =
  IsTyped<Ops> extends true
    ? Id extends keyof Ops
      ? Omit<CallRecord, 'operationId' | 'pathParams' | 'query' | 'body'> & {
          operationId: Id;
          /** Path parameters as sent: text, by name. */
          pathParams: { [Name in keyof Parameters<OperationOf<Ops, Id>, 'path'>]: string };
          /** The query as sent: text, by name (a request may also send names the contract does not have). */
          query: { [Name in keyof Parameters<OperationOf<Ops, Id>, 'query'>]?: string | string[] } & Record<
            string,
            string | string[]
          >;
          /** The body as the contract types it; a call with `violations` may have sent something else. */
          body?: RequestBodyOf<OperationOf<Ops, Id>>;
        }
      : never
    : CallRecord;

/** Any recorded call: one of an operation, or one no operation matched. */
export type AnyCall<Ops> =
  IsTyped<Ops> extends true ? TypedCall<Ops, OperationId<Ops>> | (CallRecord & { operationId: null }) : CallRecord;

/** Which calls of one operation to return. */
export type TypedFilter<Ops, Id extends OperationId<Ops>> = CallFilter & { operationId: Id };

/**
 * A filter or a match that names no operation, when the mock is typed (one that names one takes the typed
 * overload, so a misspelt name is an error); any, when it is not.
 */
export type Unnamed<Ops, T extends { operationId?: string }> =
  IsTyped<Ops> extends true ? Omit<T, 'operationId'> & { operationId?: undefined } : T;

/** What a call of one operation must have (see {@link CallMatch}); its fields typed as the contract says. */
export type TypedMatch<Ops, Id extends OperationId<Ops>> =
  IsTyped<Ops> extends true
    ? Omit<CallMatch, 'operationId' | 'pathParams' | 'query' | 'body'> & {
        operationId: Id;
        pathParams?: { [Name in keyof Parameters<OperationOf<Ops, Id>, 'path'>]?: unknown };
        query?: { [Name in keyof Parameters<OperationOf<Ops, Id>, 'query'>]?: unknown } & Record<string, unknown>;
        body?: DeepPartial<RequestBodyOf<OperationOf<Ops, Id>>>;
      }
    : CallMatch & { operationId: Id };

/** What to expect of a call of one operation, after its operationId (for the matchers). */
export type TypedExpectation<Ops, Id extends OperationId<Ops>> = Omit<TypedMatch<Ops, Id>, 'operationId'>;

/** An override of one operation: a status it documents, and a body of that status's type. */
export type TypedOverride<Ops, Id extends OperationId<Ops>, Status> =
  IsTyped<Ops> extends true
    ? Omit<OverrideSpec, 'operationId' | 'match' | 'status' | 'body'> & {
        operationId: Id;
        match?: Omit<TypedMatch<Ops, Id>, 'operationId' | 'status'>;
        status?: Status;
        body?: ResponseBodyOf<OperationOf<Ops, Id>, Status>;
      }
    : OverrideSpec & { operationId: Id };

/** An override in force, as the spec typed it. */
export type TypedOverrideInForce<Ops, Id extends OperationId<Ops>, Status> = TypedOverride<Ops, Id, Status> &
  Omit<Override, keyof OverrideSpec>;
