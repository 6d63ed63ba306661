// A collection of the session's state as a table: a row per record, a column per field.
import { admin } from './api.js';
import { h, fill, byId } from './dom.js';
import { showProblem } from './controls.js';

/** Wires the collection picker; `refresh()` lists the collections again and reloads the one chosen. */
export function setUpState() {
  const select = byId('state-collection');
  const table = byId('state');
  const message = byId('state-message');
  const load = async () => {
    fill(message);
    if (!select.value) return fill(table);
    // The collection's concrete path (`/members/m1/passes`) follows /state as the store keys it.
    const result = await admin(`/state${select.value}`);
    if (!result.ok) return showProblem(message, result);
    fill(table, recordsTable(result.body.records));
  };
  const refresh = async () => {
    const result = await admin('/state');
    if (!result.ok) return showProblem(message, result);
    const chosen = select.value;
    const keys = Object.keys(result.body.collections);
    fill(
      select,
      h('option', { value: '' }, keys.length ? 'Choose…' : 'No collection used yet'),
      keys.map((key) => h('option', { value: key }, `${key} (${result.body.collections[key].length})`)),
    );
    select.value = keys.includes(chosen) ? chosen : '';
    await load();
  };
  select.addEventListener('change', load);
  byId('state-refresh').addEventListener('click', refresh);
  return refresh;
}

function recordsTable(records) {
  if (records.length === 0) return h('p', { class: 'hint' }, 'No records.');
  const columns = [...new Set(records.flatMap((record) => Object.keys(record)))];
  const cell = (value) => (value === undefined ? '' : typeof value === 'string' ? value : JSON.stringify(value));
  return h(
    'table',
    { class: 'records' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        columns.map((name) => h('th', { scope: 'col' }, name)),
      ),
    ),
    h(
      'tbody',
      {},
      records.map((record) =>
        h(
          'tr',
          {},
          columns.map((name) => h('td', {}, cell(record[name]))),
        ),
      ),
    ),
  );
}
