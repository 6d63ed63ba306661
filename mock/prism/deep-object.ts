// Prism's deepObject deserializer (query parameters, form fields) builds every object its schema declares,
// sent or not: `transform_usage: { divide_by: undefined, round: undefined }` for a form that never named
// `transform_usage`, which its validator then refuses for the missing required fields. Stripe's contract
// alone has hundreds of such optional objects. Here an object the request names no key of is the empty
// object when that fits its schema (a form cannot send an empty object any other way: Stripe requires
// `features`, all of whose fields are optional), and absent when it does not.

/** Prism's deserializer: the parameter's name, the request's parameters, the parameter's schema. */
export type DeepObjectDeserializer = (
  name: string,
  parameters: Record<string, unknown>,
  schema?: unknown,
  ...rest: unknown[]
) => unknown;

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: unknown };

/**
 * Wraps Prism's deepObject deserializer so that only the objects the request names (`name[a][b]=…`) are built.
 * @example keepUnsentAbsent(prism)('card', { 'card[number]': '42' }, schema) // { number: '42' }, no `card.address`
 */
export function keepUnsentAbsent(prism: DeepObjectDeserializer): DeepObjectDeserializer {
  return (name, parameters, schema, ...rest) => {
    const sent = Object.keys(parameters).filter((key) => key.startsWith(`${name}[`));
    if (sent.length === 0) return unsent(schema as Schema | undefined);
    return prune(prism(name, parameters, schema, ...rest), schema as Schema | undefined, name, sent);
  };
}

/** What an object nobody sent is: `{}` when an empty object fits its schema, else nothing. */
function unsent(schema: Schema | undefined): unknown {
  const isObject = schema?.type === 'object' || typeof schema?.properties === 'object';
  const requires = Array.isArray(schema?.required) && schema.required.length > 0;
  return isObject && !requires ? {} : undefined;
}

/** Keeps what was sent of a built object; each object below it that nobody sent is read by {@link unsent}. */
function prune(value: unknown, schema: Schema | undefined, path: string, sent: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}[${key}]`;
    const childSchema = schema?.properties?.[key];
    if (sent.some((k) => k === at || k.startsWith(`${at}[`))) out[key] = prune(child, childSchema, at, sent);
    else if (typeof child === 'object' && child !== null && !Array.isArray(child)) {
      const empty = unsent(childSchema);
      if (empty !== undefined) out[key] = empty;
    }
  }
  return out;
}
