// Where an operation of Prism's holds schemas: its parameters, bodies, headers and callbacks.
import type { IHttpOperation } from '@stoplight/types';

/** A part of an operation that may hold a schema (a parameter, a body, a response, a media type, a header). */
export interface SchemaHolder {
  schema?: unknown;
  contents?: Array<SchemaHolder & { encodings?: Array<{ headers?: SchemaHolder[] }> }>;
  headers?: SchemaHolder[];
}

/**
 * Every part of an operation that holds a schema directly, callbacks included (a part may come twice).
 * @example for (const holder of schemaHolders(spec)) console.log(holder.schema);
 */
export function schemaHolders(spec: IHttpOperation, into: Array<SchemaHolder & { schema: unknown }> = []) {
  const { request } = spec;
  const lists: Array<readonly SchemaHolder[] | undefined> = [
    request?.path,
    request?.query,
    request?.headers,
    request?.cookie,
    request?.body ? [request.body as SchemaHolder] : undefined,
    spec.responses as SchemaHolder[],
  ];
  for (const list of lists) for (const holder of list ?? []) holdersIn(holder, into);
  for (const callback of spec.callbacks ?? []) schemaHolders(callback as IHttpOperation, into);
  return into;
}

function holdersIn(holder: SchemaHolder, into: Array<SchemaHolder & { schema: unknown }>): void {
  if (holder.schema !== undefined) into.push(holder as SchemaHolder & { schema: unknown });
  for (const header of holder.headers ?? []) holdersIn(header, into);
  for (const content of holder.contents ?? []) {
    holdersIn(content, into);
    for (const encoding of content.encodings ?? [])
      for (const header of encoding.headers ?? []) holdersIn(header, into);
  }
}
