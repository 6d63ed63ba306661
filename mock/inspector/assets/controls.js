// The controls that change the mock: reset, overrides (refused ones explained inline), faults.
import { admin, settings } from './api.js';
import { h, fill, byId } from './dom.js';
import { counted } from './call-format.js';

/**
 * Shows a refusal of the admin API in `box`: its detail, and each violation with where it points.
 * @example showProblem(byId('override-message'), { status: 422, body: { detail, violations } })
 */
export function showProblem(box, { status, body }) {
  const problem = body ?? {};
  const violations = Array.isArray(problem.violations) ? problem.violations : [];
  fill(
    box,
    h(
      'div',
      { class: 'problem' },
      h('strong', {}, status ? `${status} ${problem.title ?? ''}` : (problem.title ?? 'Failed')),
      problem.detail ? h('p', {}, problem.detail) : null,
      violations.length
        ? h(
            'ul',
            {},
            violations.map((v) =>
              h('li', {}, h('code', {}, `${v.location ?? ''} ${v.pointer || '(all)'}`), ' ', v.message),
            ),
          )
        : null,
    ),
  );
}

/** Wires the reset buttons; `afterReset()` refreshes what the page shows. */
export function setUpReset(afterReset) {
  const message = byId('reset-message');
  const reset = async (all) => {
    // Naming the session (the default one too, as '') resets it alone; no header resets everything.
    const result = await admin('/reset', {
      method: 'POST',
      headers: all ? {} : { 'X-Mock-Session': settings.session },
    });
    if (!result.ok) return showProblem(message, result);
    fill(message, all ? 'Everything was reset.' : `The session ${settings.session || 'default'} was reset.`);
    afterReset();
  };
  byId('reset-session').addEventListener('click', () => reset(false));
  byId('reset-all').addEventListener('click', () => reset(true));
}

/** Wires the override form and list; `refresh()` reloads the session's overrides. */
export function setUpOverrides() {
  const form = byId('override-form');
  const message = byId('override-message');
  const list = byId('overrides');
  const refresh = async () => {
    const result = await admin('/overrides');
    if (!result.ok) return fill(list);
    fill(
      list,
      result.body.overrides.map((o) =>
        h(
          'li',
          { 'data-override': o.id },
          h('code', {}, o.id),
          ` ${o.operationId}${o.status ? ` → ${o.status}` : ''}${o.delay ? `, ${o.delay} ms later` : ''}`,
          ` (${o.remaining === null ? 'until reset' : `${o.remaining} left`}) `,
          h('button', { type: 'button', onclick: () => clear(o.id), 'aria-label': `Clear ${o.id}` }, 'Clear'),
        ),
      ),
    );
  };
  const clear = async (id) => {
    const result = await admin(id ? `/overrides/${encodeURIComponent(id)}` : '/overrides', { method: 'DELETE' });
    if (!result.ok) showProblem(message, result);
    else fill(message, h('p', { class: 'hint' }, id ? `${id} cleared.` : 'Every override of the session cleared.'));
    refresh();
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const spec = readOverride(form);
    if (spec.error) return showProblem(message, { status: 0, body: { title: 'Not sent', detail: spec.error } });
    const result = await admin('/overrides', { method: 'POST', body: spec.override });
    if (!result.ok) return showProblem(message, result);
    const o = result.body;
    fill(
      message,
      h(
        'p',
        { class: 'ok' },
        `${o.id} set: ${o.operationId} answers ${o.status ?? 'as the contract says'}${o.times ? ` for the next ${counted(o.times, 'call')}` : ' until reset'}.`,
      ),
    );
    refresh();
  });
  byId('clear-overrides').addEventListener('click', () => clear());
  return refresh;
}

/** The override the form describes, or an error for a field the browser cannot send (a body that is not JSON). */
function readOverride(form) {
  const field = (name) => form.elements.namedItem(name).value.trim();
  const override = { operationId: field('operationId') };
  for (const name of ['status', 'delay', 'times']) if (field(name) !== '') override[name] = Number(field(name));
  if (field('body') !== '') {
    try {
      override.body = JSON.parse(field('body'));
    } catch (error) {
      return { error: `The body is not JSON: ${error.message}` };
    }
  }
  return { override };
}

/** Wires the faults form; `refresh()` shows the faults in force. */
export function setUpFaults() {
  const form = byId('faults-form');
  const message = byId('faults-message');
  const now = byId('faults-now');
  const show = (faults = {}) => {
    const parts = [];
    if (faults.latency) parts.push(`latency ${faults.latency} ms`);
    if (faults.failureRate) parts.push(`${Math.round(faults.failureRate * 100)}% failures`);
    if (faults.dropRate) parts.push(`${Math.round(faults.dropRate * 100)}% dropped`);
    fill(now, parts.length ? `On: ${parts.join(', ')}.` : 'Off: every answer is the contract’s.');
  };
  const refresh = async () => {
    const result = await admin('/faults');
    if (result.ok) show(result.body.faults);
  };
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const faults = {};
    const latency = form.elements.namedItem('latency').value.trim();
    if (latency) faults.latency = /^\d+$/.test(latency) ? Number(latency) : latency;
    for (const name of ['failureRate', 'dropRate']) {
      const value = form.elements.namedItem(name).value.trim();
      if (value) faults[name] = Number(value);
    }
    const result = await admin('/faults', { method: 'PUT', body: faults });
    if (!result.ok) return showProblem(message, result);
    fill(message);
    show(result.body.faults);
  });
  byId('faults-off').addEventListener('click', async () => {
    const result = await admin('/faults', { method: 'DELETE' });
    if (!result.ok) return showProblem(message, result);
    fill(message);
    show({});
  });
  return refresh;
}
