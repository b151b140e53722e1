// The admin API from the page: same origin only, the bearer token (when the admin API has
// one) from sessionStorage as an Authorization header, JSON on every change.

const KEY = 'faultline.admin.token';
let unauthorized = () => {};

/** The token this tab was given, or ''. */
export function token() { return sessionStorage.getItem(KEY) || ''; }

/** Keeps `value` for this tab only; '' forgets it. */
export function setToken(value) {
  if (value) sessionStorage.setItem(KEY, value); else sessionStorage.removeItem(KEY);
}

/** Called whenever the admin API answers 401. */
export function onUnauthorized(handler) { unauthorized = handler; }

/** Request headers: Accept, the token, and the JSON type when a body or change is sent. */
export function headers(change) {
  const result = { Accept: 'application/json' };
  if (change) result['Content-Type'] = 'application/json';
  const current = token();
  if (current) result.Authorization = `Bearer ${current}`;
  return result;
}

/** An admin API refusal: its status and message. */
export class ApiError extends Error {
  constructor(status, message) { super(message); this.status = status; }
}

/** `method path` with `body` as JSON; resolves to the parsed answer, rejects with ApiError. */
export async function api(method, path, body) {
  const change = method !== 'GET';
  const init = { method, headers: headers(change), cache: 'no-store', credentials: 'omit', redirect: 'error' };
  if (body !== undefined) init.body = JSON.stringify(body);
  const response = await fetch(path, init);
  const text = await response.text();
  let data = null;
  try { data = text ? JSON.parse(text) : null; } catch { data = text; }
  if (response.status === 401) unauthorized();
  if (!response.ok) throw new ApiError(response.status, (data && data.error) || `HTTP ${response.status}`);
  return data;
}
