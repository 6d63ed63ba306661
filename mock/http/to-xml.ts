// Writes a JSON value as XML, the way Prism answers an XML media type: one element per property.

/**
 * The XML text of a body: a string is sent as it is (an example may be written as XML already); anything
 * else is wrapped in one root element (`xml`, as Prism names it, unless the schema's `xml.name` says
 * otherwise), with an element per property, one per item for an array property, empty for `null`. Names
 * that XML does not allow are made valid, text is escaped, and characters XML 1.0 cannot carry are dropped.
 * @example toXml({ id: 0, name: 'doggie' }) // '<xml><id>0</id><name>doggie</name></xml>'
 */
export function toXml(body: unknown, root = 'xml'): string {
  if (typeof body === 'string') return body;
  return element(elementName(root), Array.isArray(body) ? { item: body } : body);
}

function element(name: string, value: unknown): string {
  if (Array.isArray(value)) return value.map((item) => element(name, item)).join('');
  if (value === null || value === undefined) return `<${name}></${name}>`;
  if (typeof value !== 'object') return `<${name}>${escapeText(String(value))}</${name}>`;
  let inner = '';
  for (const [key, child] of Object.entries(value)) inner += element(elementName(key), child);
  return `<${name}>${inner}</${name}>`;
}

// XML 1.0 names, ASCII part: a letter or `_` first, then letters, digits, `_`, `-`, `.`; other characters become `_`.
function elementName(key: string): string {
  const name = key.replace(/[^A-Za-z0-9_.-]/g, '_');
  return /^[A-Za-z_]/.test(name) ? name : `_${name}`;
}

function escapeText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}
