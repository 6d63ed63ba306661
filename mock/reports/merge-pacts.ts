// Pacts of one run joined into one file: a run with two mocks (two vitest projects, each with its own global setup)
// writes the same pact twice, and the second must not drop the first's interactions (node/write-report.ts).
import { isObject } from '../lib/json-value.js';
import { bodyKind, mediaTypeOf } from '../http/body-kind.js';
import type { Pact, PactInteraction } from './pact.js';

/**
 * One pact of two a run wrote for the same parties (two mocks, each with its own calls): the earlier's
 * interactions, then the later's of a request shape (or a media type answered) it lacks, a description repeated
 * told apart as toPact does.
 * @example mergePacts(JSON.parse(readFileSync(file, 'utf8')), mock.pact(parties))
 */
export function mergePacts(earlier: Pact, later: Pact): Pact {
  const shapes = new Set(earlier.interactions.map(interactionShape));
  const descriptions = new Set(earlier.interactions.map((i) => i.description));
  const interactions = [...earlier.interactions];
  for (const interaction of later.interactions) {
    if (shapes.has(interactionShape(interaction))) continue;
    shapes.add(interactionShape(interaction));
    let description = interaction.description;
    for (let n = 2; descriptions.has(description); n++) description = `${interaction.description} #${n}`;
    descriptions.add(description);
    interactions.push({ ...interaction, description });
  }
  const leftOut = [...earlier.metadata['membership-mock'].left_out, ...later.metadata['membership-mock'].left_out];
  return {
    ...later,
    interactions,
    metadata: {
      ...later.metadata,
      'membership-mock': { interactions: interactions.length, left_out: leftOut.slice(0, 100) },
    },
  };
}

/**
 * An interaction's request shape and media type answered, as pact.ts's pactShape tells calls apart (the operation
 * leads its description).
 */
function interactionShape({ description, request, response }: PactInteraction): string {
  const body = fieldNames(request) ?? typeof request.body;
  const query = Object.keys(request.query ?? {})
    .sort()
    .join(',');
  const mediaType = mediaTypeOf(response.headers?.['Content-Type']) ?? '';
  return [operationOf(description, request.method), request.method, response.status, mediaType, query, body].join('|');
}

/**
 * The operation an interaction's description names, whole: toPact writes `operationId: METHOD path → status`, and
 * an operationId may hold a colon itself (`payments:listItems`, with several APIs).
 * @example operationOf('a:listItems: GET /items → 200', 'GET') // 'a:listItems'
 */
function operationOf(description: string, method: string): string {
  const end = description.indexOf(`: ${method} `);
  return end === -1 ? description : description.slice(0, end);
}

/** The field names of a request's body, sorted: a JSON object's keys, or a form's names (written as its text). */
function fieldNames({ headers, body }: PactInteraction['request']): string | undefined {
  if (isObject(body)) return Object.keys(body).sort().join(',');
  if (typeof body !== 'string' || bodyKind(headers?.['Content-Type']).kind !== 'form') return undefined;
  return [...new Set(new URLSearchParams(body).keys())].sort().join(',');
}
