// One call opened: its request and response side by side, its contract violations marked where they are,
// and the curl command that sends it again.
import { h, fill } from './dom.js';
import { renderJson, pointerToken } from './json-view.js';
import { toCurl } from './curl.js';
import { describeStatus } from './call-format.js';

/**
 * Fills `dialog` with `call` and opens it (modal: Escape closes it, and focus goes back where it was).
 * @example showCall(document.querySelector('dialog'), call)
 */
export function showCall(dialog, call) {
  const violations = call.violations ?? [];
  const at = (location) => marksOf(violations.filter((v) => v.location === location));
  const curl = toCurl(call, location.origin);
  const copied = h('span', { class: 'hint', role: 'status' });
  const curlText = h('pre', { class: 'curl', tabindex: '0' }, curl);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(curl);
      fill(copied, 'Copied.');
    } catch {
      // No clipboard (an insecure origin, a denied permission): select the text for Ctrl+C.
      getSelection()?.selectAllChildren(curlText);
      fill(copied, 'Selected: press Ctrl+C to copy.');
    }
  };
  const { response } = call;
  fill(
    dialog,
    h(
      'header',
      { class: 'dialog-head' },
      h('h2', { id: 'call-title' }, `${call.method} ${call.path}`),
      h('button', { type: 'button', class: 'close', onclick: () => dialog.close(), 'aria-label': 'Close' }, 'Close'),
    ),
    h(
      'p',
      { class: 'facts' },
      `${call.operationId ?? 'no operation of the contract'} · ${describeStatus(call)} · ${call.time} · ${call.id}`,
      call.refusal ? ` · refused (${call.refusal.documented ? 'a documented answer' : "the mock's own problem"})` : '',
      call.fault ? ` · fault: ${call.fault}` : '',
      call.answeredBy && call.answeredBy !== 'mock' ? ` · answered by: ${call.answeredBy}` : '',
      call.fallback ? ` (${call.fallback})` : '',
    ),
    violationList('Contract violations of the request', violations, (v) => `${v.location} ${v.pointer || '(all)'}`),
    violationList(
      'The response body breaks the contract',
      call.responseViolations ?? [],
      (v) => `body ${v.pointer || '(all)'}`,
    ),
    h(
      'div',
      { class: 'sides' },
      h(
        'section',
        { class: 'side', 'aria-labelledby': 'request-title' },
        h('h3', { id: 'request-title' }, 'Request'),
        pairs('Path parameters', call.pathParams, at('path')),
        pairs('Query', call.query, at('query')),
        pairs('Headers', call.headers, at('header')),
        body(call.body, call.truncated, at('body')),
      ),
      h(
        'section',
        { class: 'side', 'aria-labelledby': 'response-title' },
        h('h3', { id: 'response-title' }, `Response ${describeStatus(call)}`),
        pairs('Headers', response.headers, new Map()),
        body(response.body, response.truncated, marksOf(call.responseViolations ?? [])),
      ),
    ),
    h(
      'section',
      { class: 'curl-box', 'aria-label': 'The call as curl' },
      h('button', { type: 'button', onclick: copy }, 'Copy as curl'),
      ' ',
      copied,
      curlText,
    ),
  );
  if (!dialog.open) dialog.showModal();
}

/** Violations by pointer: `Map<pointer, messages[]>`. */
function marksOf(violations) {
  const marks = new Map();
  for (const { pointer, message } of violations) marks.set(pointer, [...(marks.get(pointer) ?? []), message]);
  return marks;
}

function violationList(title, violations, where) {
  if (violations.length === 0) return null;
  return h(
    'section',
    { class: 'violations', 'aria-label': title },
    h('h3', {}, `${title} (${violations.length})`),
    h(
      'ul',
      {},
      violations.map((v) => h('li', {}, h('code', {}, where(v)), ' ', v.message)),
    ),
  );
}

/** A table of names and values (headers, query, path parameters); a row a violation points at is marked. */
function pairs(title, record = {}, marks) {
  const entries = Object.entries(record ?? {});
  if (entries.length === 0 && marks.size === 0) return null;
  const rows = entries.map(([name, value]) => {
    const messages = marks.get(`/${pointerToken(name)}`) ?? marks.get(`/${pointerToken(name.toLowerCase())}`);
    return h(
      'tr',
      { class: messages ? 'violation' : undefined, title: messages?.join('; ') },
      h('th', { scope: 'row' }, name),
      h(
        'td',
        {},
        [value].flat().join(', '),
        messages ? h('span', { class: 'violation-note' }, ` ← ${messages.join('; ')}`) : '',
      ),
    );
  });
  const listed = new Set(entries.map(([name]) => `/${pointerToken(name.toLowerCase())}`));
  const absent = [...marks].filter(([pointer]) => !listed.has(pointer.toLowerCase()));
  for (const [pointer, messages] of absent) {
    rows.push(
      h(
        'tr',
        { class: 'violation' },
        h('th', { scope: 'row' }, pointer.slice(1) || '(all)'),
        h('td', {}, h('span', { class: 'violation-note' }, `(not sent) ${messages.join('; ')}`)),
      ),
    );
  }
  return h(
    'details',
    { open: true },
    h('summary', {}, `${title} (${entries.length})`),
    h('table', { class: 'pairs' }, rows),
  );
}

function body(value, truncated, marks) {
  if (value === undefined)
    return h('p', { class: 'hint' }, marks.size ? `No body: ${[...marks.values()].flat().join('; ')}` : 'No body.');
  const cut = truncated
    ? h('p', { class: 'hint' }, `Cut: ${truncated.bytes} bytes were sent; the journal keeps the start.`)
    : null;
  if (typeof value === 'string') return [h('h4', {}, 'Body'), cut, h('pre', { class: 'json' }, value)];
  const { element, missing } = renderJson(value, marks);
  const notes = missing.map((pointer) => h('li', {}, h('code', {}, pointer), ' ', marks.get(pointer).join('; ')));
  return [h('h4', {}, 'Body'), cut, notes.length ? h('ul', { class: 'violations-missing' }, notes) : null, element];
}
