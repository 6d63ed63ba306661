// Prism's deepObject deserializer (query parameters, form fields) builds every object its schema declares,
// sent or not: `transform_usage: { divide_by: undefined, round: undefined }` for a form that never named
// `transform_usage`, which its validator then refuses for the missing required fields. Stripe's contract
// alone has hundreds of such optional objects. Here an object the request names no key of stays absent.

/** Prism's deserializer: the parameter's name, the request's parameters, the parameter's schema. */
export type DeepObjectDeserializer = (name: string, parameters: Record<string, unknown>, ...rest: unknown[]) => unknown;

/**
 * Wraps Prism's deepObject deserializer so that only objects the request names (`name[a][b]=…`) are built.
 * @example keepUnsentAbsent(prism)('card', { 'card[number]': '42' }, schema) // { number: '42' }, no `card.address`
 */
export function keepUnsentAbsent(prism: DeepObjectDeserializer): DeepObjectDeserializer {
  return (name, parameters, ...rest) => {
    const sent = Object.keys(parameters).filter((key) => key.startsWith(`${name}[`));
    if (sent.length === 0) return undefined;
    return prune(prism(name, parameters, ...rest), name, sent);
  };
}

/** Drops the properties of built objects whose path no sent key starts with. */
function prune(value: unknown, path: string, sent: readonly string[]): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = {};
  for (const [key, child] of Object.entries(value)) {
    const at = `${path}[${key}]`;
    if (!sent.some((k) => k === at || k.startsWith(`${at}[`))) continue;
    out[key] = prune(child, at, sent);
  }
  return out;
}
