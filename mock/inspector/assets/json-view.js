// Pretty JSON as elements, each value tagged with its JSON pointer, so a violation can be marked where it is.
import { h } from './dom.js';

/**
 * A `<pre>` of `value` indented as JSON.stringify(value, null, 2) would be; the values at the pointers of
 * `marks` (a Map from pointer to messages) get the class `violation`, a title and a note after them.
 * Returns the element and the pointers it could not find (a violation about a missing field, say).
 * @example renderJson({ name: 42 }, new Map([['/name', ['must be string']]]))
 */
export function renderJson(value, marks = new Map()) {
  const found = new Set();
  const pre = h('pre', { class: 'json' });
  pre.append(...valueNodes(value, '', 0, marks, found), '\n');
  const missing = [...marks.keys()].filter((pointer) => !found.has(pointer));
  return { element: pre, missing };
}

/** A pointer's reference token for a key: `~` and `/` escaped (RFC 6901). */
export function pointerToken(key) {
  return String(key).replace(/~/g, '~0').replace(/\//g, '~1');
}

function valueNodes(value, pointer, depth, marks, found) {
  const inner = [];
  const pad = '  '.repeat(depth + 1);
  if (Array.isArray(value) && value.length > 0) {
    inner.push('[\n');
    value.forEach((item, index) => {
      inner.push(pad, ...valueNodes(item, `${pointer}/${index}`, depth + 1, marks, found));
      inner.push(index < value.length - 1 ? ',\n' : '\n');
    });
    inner.push('  '.repeat(depth), ']');
  } else if (value !== null && typeof value === 'object' && Object.keys(value).length > 0) {
    const entries = Object.entries(value);
    inner.push('{\n');
    entries.forEach(([key, item], index) => {
      inner.push(pad, h('span', { class: 'key' }, JSON.stringify(key)), ': ');
      inner.push(...valueNodes(item, `${pointer}/${pointerToken(key)}`, depth + 1, marks, found));
      inner.push(index < entries.length - 1 ? ',\n' : '\n');
    });
    inner.push('  '.repeat(depth), '}');
  } else {
    inner.push(h('span', { class: `scalar ${kindOf(value)}` }, JSON.stringify(value) ?? 'undefined'));
  }
  const messages = marks.get(pointer);
  if (!messages) return [h('span', { 'data-pointer': pointer }, ...inner)];
  found.add(pointer);
  const title = messages.join('; ');
  return [
    h('span', { class: 'violation', 'data-pointer': pointer, title }, ...inner),
    h('span', { class: 'violation-note' }, ` ← ${title}`),
  ];
}

function kindOf(value) {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
