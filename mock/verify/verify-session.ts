// One walk against a provider: sends requests, checks each answer with Prism and keeps the steps.
import type { Operation } from '../contract/contract.js';
import { createBodyGenerator } from '../generate/generate-body.js';
import { checkResponse, type ReceivedResponse } from '../prism/check-response.js';
import { buildTarget, createParamValues } from './param-values.js';
import { sendRequest } from './send-request.js';
import type { SkippedOperation, VerifyReport, VerifyStep } from './verify-report.js';
import { bundleOf } from '../schema/operation-bundle.js';

/** What a session needs: where the provider is and how to talk to it. */
export interface SessionSettings {
  baseUrl: string;
  headers: Record<string, string>;
  seed: number | string;
  timeoutMs: number;
  params: Record<string, string>;
}

/** A body to send, or why the operation cannot be called. */
export type BodyPlan = { body?: unknown; mediaType?: string } | { skip: string };

/** A walk in progress. */
export interface VerifySession {
  /** Sends one request for an operation, checks the answer against the contract and records it as a step. */
  call(
    operation: Operation,
    fixed?: Record<string, string>,
    plan?: BodyPlan,
  ): Promise<{ step: VerifyStep; response?: ReceivedResponse }>;
  /** The body an operation takes, generated from its JSON request schema. */
  planBody(operation: Operation): BodyPlan;
  skip(operation: Operation, reason: string): void;
  report(): VerifyReport;
}

const ACCEPT = 'application/json, application/problem+json;q=0.9';

/**
 * Starts a walk; steps are kept in the order they were sent.
 * @example const session = createVerifySession({ baseUrl, headers: {}, seed: 1, timeoutMs: 10_000, params: {} });
 */
export function createVerifySession(settings: SessionSettings): VerifySession {
  const { baseUrl, headers, seed, timeoutMs, params } = settings;
  const values = createParamValues(seed, params);
  const generator = createBodyGenerator(seed);
  const steps: VerifyStep[] = [];
  const skipped: SkippedOperation[] = [];
  const sentHeaders = ['accept', 'content-type', ...Object.keys(headers).map((name) => name.toLowerCase())];

  return {
    async call(operation, fixed = {}, plan = {}) {
      const target = buildTarget(operation.spec, values, fixed, sentHeaders);
      const body = 'body' in plan ? plan.body : undefined;
      const contentType: Record<string, string> =
        body === undefined ? {} : { 'Content-Type': ('mediaType' in plan && plan.mediaType) || 'application/json' };
      const step: VerifyStep = {
        operationId: operation.id,
        method: operation.method.toUpperCase(),
        path: target.path,
        status: null,
        violations: [],
      };
      steps.push(step);
      const started = performance.now();
      const answer = await sendRequest(
        {
          method: step.method,
          url: `${baseUrl.replace(/\/+$/, '')}${target.path}`,
          headers: mergeHeaders({ Accept: ACCEPT }, target.headers, contentType, headers),
          body,
        },
        timeoutMs,
      );
      step.ms = Math.round(performance.now() - started);
      if (!answer.ok) {
        step.violations.push(answer.error);
        return { step };
      }
      step.status = answer.response.status;
      step.violations.push(...checkResponse(operation.spec, answer.response));
      return { step, response: answer.response };
    },

    planBody(operation) {
      const request = operation.spec.request?.body;
      if (!request) return {};
      const contents = request.contents ?? [];
      const json =
        contents.find((c) => /^application\/json\b/i.test(c.mediaType)) ??
        contents.find((c) => /[/+]json\b/i.test(c.mediaType));
      if (!json) {
        if (!request.required) return {};
        return {
          skip: `needs a ${contents.map((c) => c.mediaType).join(' or ') || 'non-JSON'} body, which verify cannot make`,
        };
      }
      try {
        return {
          body: json.schema
            ? generator.generate(json.schema, `verify body ${operation.id}`, bundleOf(operation.spec))
            : {},
          mediaType: json.mediaType,
        };
      } catch (error) {
        return { skip: `cannot generate a body from its schema: ${(error as Error).message}` };
      }
    },

    skip(operation, reason) {
      skipped.push({ operationId: operation.id, reason });
    },

    report() {
      const violations = steps.reduce((sum, step) => sum + step.violations.length, 0);
      return {
        steps: steps.map((step) => ({ ...step, violations: [...step.violations] })),
        violations,
        requests: steps.length,
        skipped: [...skipped],
      };
    },
  };
}

/** Later headers win, whatever the case of their names. */
function mergeHeaders(...sets: Record<string, string>[]): Record<string, string> {
  const merged: Record<string, string> = {};
  for (const set of sets) for (const [name, value] of Object.entries(set)) merged[name.toLowerCase()] = value;
  return merged;
}
