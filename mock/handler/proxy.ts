// The proxy stage: a request the rules send upstream is forwarded, the upstream's answer checked against the
// contract, recorded and passed on; where the rules say so, the mock answers instead (a fallback).
import { isUtf8 } from 'node:buffer';
import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import type { IHttpOperation } from '@stoplight/types';
import { placeholdersOf, type MockContext } from '../instance/mock-context.js';
import { bodyNotForwarded, type ProxyRules } from '../respond/proxy-rules.js';
import type { Forward } from '../respond/decide.js';
import { compileResponses } from '../schema/response-table.js';
import {
  findAnswerViolations,
  SchemaChecks,
  type AnswerViolation,
  type BodyViolation,
} from '../prism/check-response.js';
import { fromRequest, headerText } from '../respond/check-answer.js';
import { problem, type ProblemKind, type Violation } from '../http/problems.js';
import { problemReply, type Reply } from '../http/reply.js';
import { carriesBody } from '../http/request-body.js';
import { bodyKind, UTF8 } from '../http/body-kind.js';
import { sentContentType } from '../http/check-content-type.js';
import { createForwarder, type ForwardResult, type UpstreamAnswer } from './forward.js';
import { recordCall } from './send-reply.js';
import { base64OfBinary } from './parse-body.js';
import { utf8WholeLength } from '../lib/bytes.js';
import { keepUpstreamRecords } from '../state/keep-upstream.js';
import type { Exchange } from './exchange.js';

/** Where the pipeline goes on with an answer of the mock's own (a problem): checked, recorded, written. */
type Finish = (ex: Exchange, reply: Reply) => void;

/** The proxy stage of one mock instance. */
export interface ProxyStage {
  readonly rules: ProxyRules;
  /** Forwards a routed request the core decided to forward; `fallback` has the mock answer it instead. */
  forward(ex: Exchange, decision: Forward, fallback: (why: string) => void): void;
  /** Forwards a request no operation matches, unchecked; `miss` is what the mock answers when it falls back. */
  passThrough(ex: Exchange, miss: Reply): void;
  close(): void;
}

/** Media types whose bodies are text: journaled and checked as such. */
const TEXT = /^(?:text\/|application\/(?:[\w.+-]*\+)?(?:json|xml|javascript|x-www-form-urlencoded|yaml|x-yaml)\b)/i;
const JSON_TYPE = /[/+]json\b/i;

/**
 * Builds the proxy stage for `rules`: its client keeps connections to the upstream alive until `close()`.
 * @example const proxy = createProxyStage(context, rules, finish); proxy.forward(ex, decision, fallback)
 */
export function createProxyStage(context: MockContext, rules: ProxyRules, finish: Finish): ProxyStage {
  const forwarder = createForwarder(rules);
  // The upstream's answers are checked with schemas compiled once, a bounded number kept.
  const checks = new SchemaChecks();
  // What is kept of a body passed through as it streams: as much as the mock reads of a request it routes, for
  // the recording (and no less than the journal keeps).
  const keptBytes = Math.max(context.options.bodyLimit, context.options.journalBodyLimit);
  /** The mock's own problem for an upstream that gave no answer (fallbacks off): 502 or 504. */
  const failed = (ex: Exchange, result: Extract<ForwardResult, { ok: false }>): void => {
    const kind: ProblemKind = result.failure.kind === 'timeout' ? 'upstreamTimeout' : 'upstreamUnreachable';
    const { url, message } = result.failure;
    const detail = `The upstream gave no answer to ${ex.method} ${url} (for ${ex.path}): ${message}.`;
    finish(ex, problemReply(problem(kind, detail, { instance: ex.path })));
  };
  return {
    rules,
    close: () => forwarder.close(),
    forward(ex, decision, fallback) {
      ex.answeredBy = 'proxy';
      forwarder.forward(ex, { bytes: ex.bodyRaw }, (result) => {
        if (!result.ok) {
          if (rules.fallsBackOnFailure) return fallback(`upstream ${result.failure.kind}: ${result.failure.message}`);
          return failed(ex, result);
        }
        const { answer } = result;
        const { spec } = ex.match!.plan.operation;
        const received = readAnswer(answer);
        let found = findAnswerViolations(checks, spec, {
          status: answer.status,
          headers: answer.headers,
          body: received.body,
        });
        // A body too large to hold was not checked: what the validator says of its absence is not true.
        if (!received.checked) found = found.filter((v) => v.location[1] !== 'body');
        const errors = found.filter((v) => v.severity === 'Error');
        const described = errors.length === 0 && documents(spec.responses, answer.status);
        if (rules.fallsBackOn(answer.status, described)) {
          answer.stream?.rest.destroy();
          return fallback(`upstream answered ${answer.status}`);
        }
        if (errors.length > 0 && context.options.errors) {
          answer.stream?.rest.destroy();
          return finish(ex, invalidAnswer(ex, answer.status, errors, decision.violations));
        }
        if (rules.recordState && errors.length === 0 && received.checked) keep(ex, answer.status, received.body);
        const header = [...found, ...decision.violations.map(fromRequest)];
        const extra = header.length > 0 ? ['sl-violations', headerText(header)] : [];
        pass(ex, answer, received, extra, {
          violations: decision.violations,
          violationCount: decision.violationCount,
          responseViolations: found.map(toBodyViolation),
        });
      });
    },
    passThrough(ex, miss) {
      ex.answeredBy = 'proxy';
      const { method, req } = ex;
      if ((method === 'GET' || method === 'HEAD') && carriesBody(req)) {
        const detail = bodyNotForwarded(method);
        return finish(ex, problemReply(problem('bodyNotForwarded', detail, { instance: ex.path })));
      }
      // The start of what was streamed through is kept, marked cut when more came.
      const sent: Buffer[] = [];
      let sentBytes = 0;
      req.on('data', (chunk: Buffer) => {
        if (sentBytes < keptBytes) sent.push(chunk.subarray(0, keptBytes - sentBytes));
        sentBytes += chunk.length;
      });
      forwarder.forward(ex, { stream: req }, (result) => {
        if (sentBytes > 0) {
          // A start cut inside a character ends at the last whole one: text stays text.
          const kept = Buffer.concat(sent);
          const start = sentBytes > kept.length ? kept.subarray(0, utf8WholeLength(kept)) : kept;
          ex.body = start.toString('utf8');
          // Bytes that are no UTF-8 text are kept as base64.
          ex.bodyBase64 = base64OfBinary(start);
          ex.bodyBytes = sentBytes;
          if (sentBytes > start.length) ex.bodyPartOf = sentBytes;
        }
        if (!result.ok) {
          if (!rules.fallsBackOnFailure) return failed(ex, result);
          ex.answeredBy = 'fallback';
          ex.fallback = `upstream ${result.failure.kind}: ${result.failure.message}`;
          return finish(ex, miss);
        }
        pass(ex, result.answer, readAnswer(result.answer), [], { violations: [] });
      });
    },
  };

  /** Keeps the records of an answer that kept the contract as the session's state (`recordState`). */
  function keep(ex: Exchange, status: number, body: unknown): void {
    const { plan, pathParams } = ex.match!;
    if (!plan.collection) return;
    const { session } = ex;
    try {
      const sent = { body: ex.body, contentType: sentContentType(ex.requestHeaders), now: new Date() };
      const answer = { status, body };
      const { kept, refused } = keepUpstreamRecords(
        plan.collection,
        session.store,
        pathParams,
        answer,
        sent,
        placeholdersOf(context),
      );
      if (refused > 0)
        context.logger.warn(`${refused} of the upstream's records were not kept: the state is full.`, {
          operationId: plan.operation.id,
        });
      if (kept > 0 && session.name === '') context.options.onStateChange(() => session.store.snapshot());
    } catch (error) {
      context.logger.warn(`the upstream's records were not kept: ${(error as Error).message}`, {
        operationId: plan.operation.id,
      });
    }
  }

  /** Records the upstream's answer and writes it to the client, its body as it came (streamed when large). */
  function pass(
    ex: Exchange,
    answer: UpstreamAnswer,
    received: ReadAnswer,
    extra: string[],
    verdict: { violations: Violation[]; violationCount?: number; responseViolations?: BodyViolation[] },
  ): void {
    const { res } = ex;
    const own = new Set(ex.headers.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()));
    // The mock's CORS speaks for the origin the browser called; the upstream's would name another.
    const corsOwn = own.has('access-control-allow-origin');
    const headers = [...ex.headers, ...extra];
    const journalHeaders: Record<string, string> = {};
    for (let i = 0; i < answer.rawHeaders.length; i += 2) {
      const name = answer.rawHeaders[i]!;
      const lower = name.toLowerCase();
      if (lower === 'content-length' || own.has(lower)) continue;
      if (corsOwn && lower.startsWith('access-control-')) continue;
      headers.push(name, answer.rawHeaders[i + 1]!);
    }
    for (let i = 0; i < headers.length; i += 2) {
      const lower = headers[i]!.toLowerCase();
      const had = journalHeaders[lower];
      journalHeaders[lower] = had === undefined ? headers[i + 1]! : `${had}, ${headers[i + 1]!}`;
    }
    const head = ex.method === 'HEAD' || answer.status === 204 || answer.status === 304;
    const record = (partOf?: number): void => {
      recordCall(
        ex,
        verdict.violations,
        {
          status: answer.status,
          headers: journalHeaders,
          body: head ? undefined : received.journal,
          ...(head || received.text === undefined ? {} : { text: received.text }),
          ...(head || received.encoding === undefined ? {} : { bodyEncoding: received.encoding }),
          ...(partOf === undefined ? {} : { partOf }),
        },
        verdict.violationCount,
        verdict.responseViolations?.length ? { responseViolations: verdict.responseViolations } : {},
      );
    };
    if (answer.body) {
      if (!head) headers.push('Content-Length', String(answer.body.length));
      if (received.cut && !head) record(answer.body.length);
      else record();
      res.writeHead(answer.status, headers);
      res.end(head ? undefined : answer.body);
      ex.log?.(ex, answer.status);
      return;
    }
    // Too large to hold: passed on as it arrives, the journal keeping its start; recorded once it all came.
    const { head: start, rest } = answer.stream!;
    const length = answer.headers['content-length'];
    if (length !== undefined) headers.push('Content-Length', length);
    res.writeHead(answer.status, headers);
    res.write(start);
    let bytes = start.length;
    rest.setTimeout(rules.timeout, () => rest.destroy());
    rest.on('data', (chunk: Buffer) => (bytes += chunk.length));
    rest.pipe(res, { end: false });
    rest.once('end', () => {
      record(bytes);
      res.end();
      ex.log?.(ex, answer.status);
    });
    rest.once('close', () => {
      if (!rest.readableEnded) res.destroy();
    });
  }
}

/** Whether the operation documents a status itself or by its class (`4XX`); `default` does not count. */
function documents(responses: IHttpOperation['responses'], status: number): boolean {
  const found = compileResponses(responses).lookup(status);
  return found !== undefined && found.code.toLowerCase() !== 'default';
}

/** An upstream answer as the checks and the journal read it. */
interface ReadAnswer {
  /** The body as checked: parsed JSON, text, or `undefined` (none, binary, or too large). */
  body: unknown;
  /** Whether the body could be checked: it came whole, decodable. */
  checked: boolean;
  /** What the journal keeps of the body. */
  journal: unknown;
  /** A JSON body's text as it came: the journal keeps it instead of serialising the parsed body again. */
  text?: string;
  /** Set when `journal` is bytes that are not text (an image), as base64. */
  encoding?: 'base64';
  /** Only part of it is kept (too large, or in a coding the mock cannot undo): `partOf` says the whole size. */
  cut: boolean;
}

/** Reads an answer's body for the checks and the journal: decompressed, decoded, parsed per its media type. */
function readAnswer(answer: UpstreamAnswer): ReadAnswer {
  const type = answer.headers['content-type'] ?? '';
  if (!answer.body) {
    // Its start, in its charset (a cut UTF-8 sequence at its end makes it no text: nothing kept).
    const start = (TEXT.test(type) && textIn(answer.stream!.head, type)) || '';
    return { body: undefined, checked: false, journal: start, cut: true };
  }
  if (answer.body.length === 0) return { body: undefined, checked: true, journal: undefined, cut: false };
  const bytes = decoded(answer.body, answer.headers['content-encoding']);
  if (bytes === undefined) return { body: undefined, checked: false, journal: '', cut: true };
  const text = textIn(bytes, type);
  // Bytes that are no text in their media type (an image) are kept as base64, as a request's are.
  if (text === undefined)
    return { body: undefined, checked: true, journal: bytes.toString('base64'), encoding: 'base64', cut: false };
  if (JSON_TYPE.test(type)) {
    try {
      const value = JSON.parse(text) as unknown;
      return { body: value, checked: true, journal: value, text, cut: false };
    } catch {
      return { body: text, checked: true, journal: text, cut: false };
    }
  }
  return { body: text, checked: true, journal: text, cut: false };
}

/**
 * The text of a body in the charset its media type names (`charset=iso-8859-1`), UTF-8 when it names none;
 * `undefined` for bytes that are not text in it, or a charset no decoder knows.
 */
function textIn(bytes: Buffer, type: string): string | undefined {
  const { charset } = bodyKind(type);
  if (charset === '' || UTF8.test(charset)) return isUtf8(bytes) ? bytes.toString('utf8') : undefined;
  try {
    return new TextDecoder(charset, { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

/** The body without its content coding, within the check limit; `undefined` for a coding the mock cannot undo. */
function decoded(body: Buffer, coding: string | undefined): Buffer | undefined {
  const name = (coding ?? 'identity').trim().toLowerCase();
  const maxOutputLength = 8 * 1024 * 1024;
  try {
    if (name === 'identity' || name === '') return body;
    if (name === 'gzip' || name === 'x-gzip') return gunzipSync(body, { maxOutputLength });
    if (name === 'deflate') return inflateSync(body, { maxOutputLength });
    if (name === 'br') return brotliDecompressSync(body, { maxOutputLength });
  } catch {
    return undefined;
  }
  return undefined;
}

function toBodyViolation(v: AnswerViolation): BodyViolation {
  const [, where, ...rest] = v.location;
  const pointer = where === 'body' ? rest.map((s) => `/${s.replace(/~/g, '~0').replace(/\//g, '~1')}`).join('') : '';
  const message =
    where === 'body' || where === undefined ? v.message : `${where} ${rest.join('.')}: ${v.message}`.trim();
  return { pointer, code: String(v.code), message };
}

/** The 500 of `errors`: the upstream's answer broke the contract; the problem lists how. */
function invalidAnswer(ex: Exchange, status: number, broken: AnswerViolation[], request: Violation[]): Reply {
  const detail =
    `The upstream answered ${status} in a way that breaks the contract: ` +
    broken.map((v) => `${v.location.slice(1).join(' ')}: ${v.message}`).join('; ');
  const found = problem('invalidUpstreamAnswer', detail, {
    instance: ex.path,
    violations: broken.map((v) => ({
      location: v.location[1] === 'header' ? 'header' : 'body',
      pointer: toBodyViolation(v).pointer,
      message: v.message,
    })),
  });
  return { ...problemReply(found), violations: request };
}
