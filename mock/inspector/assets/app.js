// The call inspector: follows the session's calls live and wires the page's panels to the admin API.
import { admin, adminBase, adminHeaders, adminUrl, settings } from './api.js';
import { byId, fill, h } from './dom.js';
import { followEvents } from './event-stream.js';
import { createCallsView } from './calls-view.js';
import { showCall } from './call-detail.js';
import { renderContract } from './contract-view.js';
import { setUpFaults, setUpOverrides, setUpReset, showProblem } from './controls.js';
import { setUpState } from './state-view.js';

const LIVE_TEXT = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
  unauthorized: 'Needs the admin token',
};

const dialog = byId('call-dialog');
let opener;
const calls = createCallsView({
  rows: byId('call-rows'),
  count: byId('calls-count'),
  empty: byId('no-calls'),
  filters: { operation: byId('filter-operation'), status: byId('filter-status'), text: byId('filter-text') },
  session: () => settings.session,
  open: (call) => {
    opener = call.id;
    showCall(dialog, call);
  },
});
// Back to the row that opened the call (it may have been drawn again meanwhile).
dialog.addEventListener('close', () => {
  document.querySelector(`#call-rows tr[data-id="${CSS.escape(opener ?? '')}"] button.open`)?.focus();
});
// A click on the backdrop (the dialog itself, outside its content) closes it too.
dialog.addEventListener('click', (event) => {
  if (event.target === dialog) dialog.close();
});

const refreshContract = async () => {
  const result = await admin('/operations');
  if (!result.ok) return showProblem(byId('contract'), result);
  renderContract(byId('contract'), result.body, (operationId) => {
    byId('filter-operation').value = operationId;
    calls.render();
    byId('calls-heading').focus();
  });
  const ids = result.body.operations.map((o) => o.operationId);
  calls.setOperations(ids);
  const select = byId('override-operation');
  const chosen = select.value;
  fill(
    select,
    ids.map((id) => h('option', { value: id }, id)),
  );
  if (ids.includes(chosen)) select.value = chosen;
};
const refreshOverrides = setUpOverrides();
// Calls come in bursts: the contract's counts and the overrides left are fetched again once a burst settles.
let later;
const refreshLater = () => {
  later ??= setTimeout(() => {
    later = undefined;
    refreshContract();
    refreshOverrides();
  }, 300);
};
const refreshFaults = setUpFaults();
const refreshState = setUpState();

const events = followEvents({
  url: () => `${adminBase}/events`,
  headers: () => adminHeaders(),
  onEvent: ({ event, data }) => {
    if (event === 'call') calls.add(JSON.parse(data));
    else if (event === 'overflow') {
      // The page fell behind and the journal dropped calls meanwhile; the stream resumes after them.
      const note = byId('stream-note');
      fill(note, `Calls after ${JSON.parse(data).after} were dropped from the journal before this page read them.`);
      note.hidden = false;
    } else if (event === 'reset') {
      calls.clear();
      refreshState();
    } else if (event === 'evicted') {
      // The mock keeps a bounded number of streams and ended this, the oldest: the page reconnects and resumes.
      const note = byId('stream-note');
      fill(note, `The mock ended this page's stream (${JSON.parse(data).reason}); it reconnects and misses nothing.`);
      note.hidden = false;
    }
    refreshLater();
  },
  onStatus: (state) => {
    const live = byId('live');
    live.dataset.state = state;
    fill(live, LIVE_TEXT[state] ?? state);
    if (state === 'live') byId('login-message').hidden = true;
    if (state === 'unauthorized') askForToken();
  },
});

/** Everything again, from the start: after the token or the session changed, or a reset. */
function reload() {
  calls.clear();
  byId('har-link').href = adminUrl('/calls.har');
  events.start();
  loadTitle();
  loadSessions();
  refreshContract();
  refreshOverrides();
  refreshFaults();
  refreshState();
}

async function loadTitle() {
  const result = await admin('');
  if (!result.ok || !result.body?.contract) return;
  fill(byId('contract-title'), result.body.contract.title);
  document.title = `Calls · ${result.body.contract.title}`;
}

async function loadSessions() {
  const result = await admin('/sessions');
  if (!result.ok) return;
  const names = result.body.sessions.map((s) => s.name).filter(Boolean);
  fill(
    byId('session-names'),
    names.map((name) => h('option', { value: name })),
  );
}

// The token: kept in this tab's session storage only, sent as Authorization: Bearer.
const tokenInput = byId('token');
const showToken = () => {
  tokenInput.value = '';
  tokenInput.placeholder = settings.token ? 'set (hidden)' : 'none set';
};
byId('login').addEventListener('submit', (event) => {
  event.preventDefault();
  settings.token = tokenInput.value.trim();
  showToken();
  reload();
});
byId('forget').addEventListener('click', () => {
  settings.token = '';
  showToken();
  reload();
});
/** Says the token is missing or wrong, beside the field to enter it. */
function askForToken() {
  const message = byId('login-message');
  fill(
    message,
    settings.token
      ? 'The admin token was refused: enter the one the mock was started with.'
      : 'The admin API needs the admin token (--admin-token): enter it above.',
  );
  message.hidden = false;
}
window.addEventListener('admin-unauthorized', askForToken);

// The session: every request names it with X-Mock-Session; empty is the default session.
const sessionInput = byId('session');
sessionInput.value = settings.session;
sessionInput.addEventListener('focus', loadSessions);
byId('session-form').addEventListener('submit', (event) => {
  event.preventDefault();
  settings.session = sessionInput.value.trim();
  reload();
});

// HAR: a plain download without a token; with one, fetched with it and handed over as a file.
byId('har-link').addEventListener('click', async (event) => {
  const message = byId('har-message');
  message.hidden = true;
  if (!settings.token) return;
  event.preventDefault();
  const response = await fetch(adminUrl('/calls.har'), { headers: adminHeaders() }).catch((error) => error);
  if (!(response instanceof Response) || !response.ok) {
    fill(message, `The HAR export failed: ${response instanceof Response ? response.status : response.message}.`);
    message.hidden = false;
    return;
  }
  const url = URL.createObjectURL(await response.blob());
  const link = h('a', { href: url, download: 'membership-mock-calls.har', hidden: true });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
});

setUpReset(() => reload());
showToken();
reload();
