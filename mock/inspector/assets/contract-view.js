// The contract's operations: the statuses each documents, which it answered in this session, and what never was.
import { h, fill } from './dom.js';
import { counted } from './call-format.js';

/**
 * Renders `GET /__mock/operations` into `list`; choosing an operation calls `pick(operationId)`.
 * @example renderContract(list, { operations: [{ operationId: 'getPass', method: 'GET', path: '/x', documented:
 * ['200'], seen: {}, calls: 0 }] }, pick)
 */
export function renderContract(list, { operations }, pick) {
  const called = operations.filter((o) => o.calls > 0).length;
  fill(
    list,
    h('p', { class: 'hint' }, `${called} of ${counted(operations.length, 'operation')} called in this session.`),
    h(
      'ul',
      { class: 'operations' },
      operations.map((operation) =>
        h(
          'li',
          { class: operation.calls > 0 ? 'called' : 'not-called', 'data-operation': operation.operationId },
          h(
            'div',
            { class: 'operation-head' },
            h('span', { class: `method m-${operation.method.toLowerCase()}` }, operation.method.toUpperCase()),
            ' ',
            h(
              'button',
              {
                type: 'button',
                class: 'link',
                onclick: () => pick(operation.operationId),
                title: `Show only the calls of ${operation.operationId}`,
              },
              operation.operationId,
            ),
            ' ',
            h('span', { class: 'hint' }, operation.calls > 0 ? counted(operation.calls, 'call') : 'not called'),
            operation.violations ? h('span', { class: 'badge violation-count' }, `⚠ ${operation.violations}`) : null,
          ),
          h(
            'div',
            { class: 'operation-path' },
            h('code', {}, operation.path),
            operation.summary ? ` ${operation.summary}` : '',
          ),
          h('div', { class: 'statuses' }, statusChips(operation)),
        ),
      ),
    ),
  );
}

/** A chip per documented status (seen or not) and per status seen that none documents. */
function statusChips({ documented, seen = {} }) {
  const counted = new Map(documented.map((code) => [code, 0]));
  const undocumented = [];
  for (const [status, times] of Object.entries(seen)) {
    const code = documentedFor(status, documented);
    if (code === undefined) undocumented.push([status, times]);
    else counted.set(code, counted.get(code) + times);
  }
  return [
    ...[...counted].map(([code, times]) =>
      h(
        'span',
        {
          class: `chip ${times ? 'seen' : 'unseen'}`,
          title: times ? `${code} answered ${times}×` : `${code} never answered`,
        },
        times ? `${code} ×${times}` : code,
      ),
    ),
    ...undocumented.map(([status, times]) =>
      h(
        'span',
        { class: 'chip undocumented', title: status === '0' ? 'dropped: no answer' : `${status} is not documented` },
        `${status === '0' ? 'dropped' : status} ×${times}`,
      ),
    ),
  ];
}

/** The documented code a status answers under: itself, its range (`4XX`), or `default`. */
function documentedFor(status, documented) {
  if (status === '0') return undefined;
  if (documented.includes(status)) return status;
  const range = `${status[0]}XX`;
  return (
    documented.find((code) => code.toUpperCase() === range) ?? (documented.includes('default') ? 'default' : undefined)
  );
}
