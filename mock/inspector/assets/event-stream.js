// Follows server-sent events with fetch and a stream reader (EventSource cannot send Authorization), and
// reconnects after a break, resuming with Last-Event-ID from the last event it saw.

/**
 * Reads a text/event-stream in chunks as they come, calling `dispatch({ id, event, data })` for each event:
 * `id` is the last id the stream gave (it carries over to later events), `event` defaults to `message`.
 * Comments (`: ping`) and events without data dispatch nothing.
 * @example const parser = createEventParser(console.log); parser.push('id: call-1\nevent: call\ndata: {}\n\n');
 */
export function createEventParser(dispatch) {
  let buffer = '';
  let lastId = '';
  let type = '';
  let data = [];
  const line = (text) => {
    if (text === '') {
      if (data.length > 0) dispatch({ id: lastId, event: type || 'message', data: data.join('\n') });
      type = '';
      data = [];
      return;
    }
    if (text.startsWith(':')) return;
    const colon = text.indexOf(':');
    const field = colon < 0 ? text : text.slice(0, colon);
    const value = colon < 0 ? '' : text.slice(colon + 1).replace(/^ /, '');
    if (field === 'id' && !value.includes('\0')) lastId = value;
    else if (field === 'event') type = value;
    else if (field === 'data') data.push(value);
  };
  return {
    push(chunk) {
      buffer += chunk;
      // A line ends at \n, \r\n or \r; a \r at the end of a chunk may be half of a \r\n, so it waits.
      const lines = buffer.split(/\r\n|\n|\r(?!$)/);
      buffer = lines.pop() ?? '';
      for (const text of lines) line(text);
    },
  };
}

/**
 * Follows the events at `url()` with `headers()`, reconnecting after `retryDelay(attempt)` ms when the stream
 * ends or fails, with `Last-Event-ID` so no event is missed or repeated. `onStatus` hears `connecting`, `live`,
 * `reconnecting`, and `unauthorized` (a 401: it waits for `start()` again, with a token).
 * @example const events = followEvents({ url: () => '/__mock/events', headers: () => ({}), onEvent, onStatus });
 * events.start();
 */
export function followEvents({
  url,
  headers,
  onEvent,
  onStatus = () => {},
  retryDelay = backoff,
  fetch = globalThis.fetch,
}) {
  let controller;
  let timer;
  let lastId = '';
  let attempt = 0;

  async function connect(signal) {
    onStatus(attempt === 0 ? 'connecting' : 'reconnecting');
    try {
      const sent = { ...headers(), Accept: 'text/event-stream' };
      if (lastId) sent['Last-Event-ID'] = lastId;
      const response = await fetch(url(), { headers: sent, signal, cache: 'no-store' });
      if (response.status === 401) {
        await response.body?.cancel();
        return onStatus('unauthorized');
      }
      if (!response.ok || !response.body) throw new Error(`the events answered ${response.status}`);
      onStatus('live');
      attempt = 0;
      const parser = createEventParser((event) => {
        lastId = event.id;
        onEvent(event);
      });
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        parser.push(value);
      }
    } catch {
      // A break (the mock restarted, the network went): reconnect below, unless this follow was stopped.
    }
    if (signal.aborted) return;
    onStatus('reconnecting');
    timer = setTimeout(() => connect(signal), retryDelay(attempt++));
  }

  const stop = () => {
    clearTimeout(timer);
    controller?.abort();
  };
  return {
    /** Starts following from the beginning (the calls the journal holds, then live ones). */
    start() {
      stop();
      lastId = '';
      attempt = 0;
      controller = new AbortController();
      connect(controller.signal);
    },
    stop,
  };
}

/** Half a second, doubling on each failed attempt up to 10 s. */
function backoff(attempt) {
  return Math.min(10_000, 500 * 2 ** attempt);
}
