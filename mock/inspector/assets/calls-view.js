// The live list of calls: newest first, filtered by operation, status class and text; a row opens its call.
import { h, fill } from './dom.js';
import { clockTime, counted, describeStatus, durationOf, statusClass } from './call-format.js';

/** Calls the page keeps; older ones leave the list (the journal and the HAR export still have them). */
const KEPT = 2000;
/** The operation filter's value for calls no operation of the contract matched. */
export const NO_OPERATION = '(none)';

/**
 * The call list over the page's table: `add(call)` as events come, `clear()` on a reset.
 * @example const view = createCallsView({ rows, count, empty, filters, session: () => 'default', open: showCall })
 */
export function createCallsView({ rows, count, empty, filters, session, open }) {
  const calls = [];
  const ids = new Set();
  const matches = (call) => {
    const operation = filters.operation.value;
    const status = filters.status.value;
    const text = filters.text.value.trim().toLowerCase();
    if (operation && (call.operationId ?? NO_OPERATION) !== operation) return false;
    if (status && statusClass(call) !== status) return false;
    return !text || searchText(call).includes(text);
  };
  const summary = () => {
    const shown = rows.childElementCount;
    fill(count, shown === calls.length ? `${calls.length}` : `${shown} of ${calls.length}`);
    empty.hidden = shown > 0;
    fill(
      empty,
      calls.length === 0
        ? 'No calls yet: send a request to the mock and it appears here.'
        : 'No call matches the filters.',
    );
  };
  const row = (call) => {
    const openIt = () => open(call);
    const violations = call.violations?.length ?? 0;
    return h(
      'tr',
      {
        'data-id': call.id,
        class: violations ? 'has-violations' : undefined,
        onclick: (e) => e.target.closest('button') || openIt(),
      },
      h('td', { class: 'time' }, h('time', { datetime: call.time }, clockTime(call.time))),
      h('td', { class: `method m-${call.method.toLowerCase()}` }, call.method),
      h(
        'td',
        { class: 'path' },
        h(
          'button',
          {
            type: 'button',
            class: 'open',
            onclick: openIt,
            'aria-label': `Open ${call.method} ${call.path} (${call.id})`,
          },
          call.path,
        ),
      ),
      h(
        'td',
        { class: 'operation' },
        // With several APIs, the API the call went to: the text filter finds its calls by its name.
        call.contract ? h('span', { class: 'api' }, `${call.contract} · `) : null,
        call.operationId ?? h('em', {}, 'none'),
      ),
      h(
        'td',
        { class: 'status' },
        h('span', { class: `badge s${statusClass(call)}` }, describeStatus(call)),
        violations
          ? h(
              'span',
              { class: 'badge violation-count', title: counted(violations, 'contract violation') },
              `⚠ ${violations}`,
            )
          : null,
      ),
      h('td', { class: 'duration' }, durationOf(call)),
      h('td', { class: 'session' }, call.session ?? (session() || 'default')),
    );
  };
  const render = () => {
    fill(rows, calls.filter(matches).reverse().map(row));
    summary();
  };
  for (const input of Object.values(filters)) input.addEventListener('input', render);
  return {
    add(call) {
      if (ids.has(call.id)) return;
      ids.add(call.id);
      calls.push(call);
      if (calls.length > KEPT) {
        const oldest = calls.shift();
        ids.delete(oldest.id);
        rows.querySelector(`tr[data-id="${CSS.escape(oldest.id)}"]`)?.remove();
      }
      if (matches(call)) rows.prepend(row(call));
      summary();
    },
    clear() {
      calls.length = 0;
      ids.clear();
      render();
    },
    render,
    /** Offers these operationIds (and calls with none) in the operation filter. */
    setOperations(operationIds) {
      const chosen = filters.operation.value;
      fill(
        filters.operation,
        h('option', { value: '' }, 'All operations'),
        operationIds.map((id) => h('option', { value: id }, id)),
        h('option', { value: NO_OPERATION }, 'No operation (unmatched)'),
      );
      filters.operation.value = chosen;
    },
  };
}

/** What the text filter looks in: method, path, query, API, operation, status, id and the request body. */
function searchText(call) {
  const query = new URLSearchParams(
    Object.entries(call.query ?? {}).flatMap(([k, v]) => [v].flat().map((one) => [k, one])),
  );
  const body = call.body === undefined ? '' : JSON.stringify(call.body);
  return `${call.method} ${call.path}?${query} ${call.contract ?? ''} ${call.operationId ?? ''} ${describeStatus(call)} ${call.id} ${body}`.toLowerCase();
}
