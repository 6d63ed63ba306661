// How a call is summed up in a row (its status or that it was dropped, its class, its duration); counts in words.

/** `dropped`, `2xx`, `4xx`... the classes the status filter offers. */
export function statusClass(call) {
  if (call.fault === 'drop' || call.response.status === 0) return 'dropped';
  return `${String(call.response.status)[0]}xx`;
}

/** Who answered, when it was not the mock alone: the real backend behind --proxy, or the mock in its place. */
const BY = { proxy: 'backend', fallback: 'mock for the backend' };

/** `201`, `500 (injected)`, `200 (backend)`, or `dropped: no answer`. */
export function describeStatus(call) {
  if (statusClass(call) === 'dropped') return 'dropped: no answer';
  if (call.fault === 'failure') return `${call.response.status} (injected)`;
  const by = BY[call.answeredBy];
  return by ? `${call.response.status} (${by})` : String(call.response.status);
}

/** A number with its noun in agreement: `1 call`, `3 calls` (as the mock's own messages count, lib/counted.ts). */
export function counted(n, singular, plural = `${singular}s`) {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** Milliseconds from the request's arrival to its answer (`ms`, its delay included). */
export function durationOf(call) {
  return typeof call.ms === 'number' ? `${Math.round(call.ms)} ms` : '—';
}

/** `14:03:22.481`, in the browser's time zone. */
export function clockTime(iso) {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const two = (n) => String(n).padStart(2, '0');
  return `${two(date.getHours())}:${two(date.getMinutes())}:${two(date.getSeconds())}.${String(date.getMilliseconds()).padStart(3, '0')}`;
}
