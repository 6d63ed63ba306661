// Builds elements without HTML strings: every value the mock recorded lands in the page as text, never markup.

/**
 * An element with attributes (`class`, `on<event>` listeners, others as attributes) and children.
 * @example h('button', { type: 'button', onclick: open }, 'Open')
 */
export function h(tag, props = {}, ...children) {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === null || value === false) continue;
    if (name === 'class') element.className = value;
    else if (name.startsWith('on')) element.addEventListener(name.slice(2), value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(...nodes(children));
  return element;
}

/** Replaces the children of `element`. */
export function fill(element, ...children) {
  element.replaceChildren(...nodes(children));
  return element;
}

/** The element with this id (the page's markup has it). */
export function byId(id) {
  return document.getElementById(id);
}

function nodes(children) {
  return children
    .flat(Infinity)
    .filter((child) => child !== undefined && child !== null && child !== false)
    .map((child) => (typeof child === 'object' ? child : String(child)));
}
