// How the page speaks to the admin API: the admin token and the session on every request, answers as data.

const TOKEN_KEY = 'membership-mock.admin-token';
const SESSION_KEY = 'membership-mock.session';

/** The admin API's URL (`…/__mock`), from where this module is served (`…/__mock/inspector/api.js`). */
export const adminBase = new URL('..', import.meta.url).href.replace(/\/$/, '');

/** The admin token (kept in the tab's session storage) and the session the page looks at (`''`: the default). */
export const settings = {
  get token() {
    return sessionStorage.getItem(TOKEN_KEY) ?? '';
  },
  set token(value) {
    if (value) sessionStorage.setItem(TOKEN_KEY, value);
    else sessionStorage.removeItem(TOKEN_KEY);
  },
  get session() {
    return sessionStorage.getItem(SESSION_KEY) ?? '';
  },
  set session(value) {
    if (value) sessionStorage.setItem(SESSION_KEY, value);
    else sessionStorage.removeItem(SESSION_KEY);
  },
};

/** `Authorization` and `X-Mock-Session` as the settings say, with `extra` on top. */
export function adminHeaders(extra = {}) {
  const headers = { Accept: 'application/json', ...extra };
  if (settings.token) headers.Authorization = `Bearer ${settings.token}`;
  if (settings.session && !('X-Mock-Session' in extra)) headers['X-Mock-Session'] = settings.session;
  return headers;
}

/**
 * One admin request: `{ ok, status, body }`, the body parsed (a problem for a refusal), `status` 0 when the mock
 * did not answer. A 401 also tells the page (event `admin-unauthorized`), so it can ask for the token.
 * @example await admin('/overrides', { method: 'POST', body: { operationId: 'getPass', status: 404 } })
 */
export async function admin(path, { method = 'GET', body, headers = {} } = {}) {
  // A change is a JSON request even without a body: the admin API refuses one a web page could forge.
  const sent = method === 'GET' ? headers : { 'Content-Type': 'application/json', ...headers };
  let response;
  try {
    response = await fetch(adminBase + path, {
      method,
      headers: adminHeaders(sent),
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (error) {
    return { ok: false, status: 0, body: { title: 'The mock did not answer', detail: String(error.message ?? error) } };
  }
  if (response.status === 401) window.dispatchEvent(new CustomEvent('admin-unauthorized'));
  const text = await response.text();
  let parsed = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = { title: `${response.status} ${response.statusText}`, detail: text.slice(0, 500) };
  }
  return { ok: response.ok, status: response.status, body: parsed };
}

/** A URL of the admin API naming the session in its query (for links, which cannot send headers). */
export function adminUrl(path, query = {}) {
  const url = new URL(adminBase + path);
  for (const [name, value] of Object.entries(query)) if (value) url.searchParams.set(name, value);
  if (settings.session) url.searchParams.set('session', settings.session);
  return url.href;
}
