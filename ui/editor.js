// The rule editor behind "fail this request": a match prefilled from the exchange, one fault
// with its parameters, a condition and a scope (global, or one session), saved through the
// admin API at the start of the rule list so it wins over file rules.
import { api } from './api.js';
import { el, fill } from './util.js';

const $ = (id) => document.getElementById(id);
let saved = () => {};

const PARAMS = {
  status: [['code', 'Status code', '503'], ['body', 'Body', 'injected by faultline']],
  delay: [['ms', 'Delay (ms)', '2000']],
  reset: [],
  close: [['after_bytes', 'After bytes', '0']],
  hang: [['ms', 'Hang for (ms, empty = until the client gives up)', '']],
  throttle: [['down_bytes_per_second', 'Download bytes per second', '10000']],
  truncate: [['keep_bytes', 'Keep bytes', '10']],
  profile: [],
};

/** Wires the dialog; `onSaved(name, scope)` runs after a rule was saved. */
export function initEditor(onSaved) {
  saved = onSaved;
  $('editor-kind').addEventListener('input', params);
  $('editor-cancel').addEventListener('click', () => $('rule-editor').close());
  $('editor-save').addEventListener('click', save);
}

/** Opens the editor for exchange `x`. */
export async function openEditor(x) {
  const path = x.path || '/';
  $('editor-name').value = `ui-${(x.method || 'any').toLowerCase()}-${path.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'root'}`;
  $('editor-method').value = x.method || '';
  $('editor-host').value = hostWithoutPort(x.host || '');
  $('editor-path').value = path;
  $('editor-path-mode').value = 'path';
  $('editor-kind').value = 'status';
  $('editor-when').value = '';
  $('editor-when-value').value = '';
  $('editor-error').textContent = '';
  params();
  const scope = $('editor-scope');
  fill(scope, el('option', { value: '' }, 'every client (global rule)'));
  try {
    const list = await api('GET', '/sessions');
    for (const s of (list && list.sessions) || []) scope.append(el('option', { value: s.id }, `session ${s.name || s.id}`));
    if (x.session) scope.value = x.session;
  } catch { /* the global scope remains */ }
  $('rule-editor').showModal();
  $('editor-kind').focus();
}

function hostWithoutPort(host) {
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.split(':')[0];
}

function params() {
  const kind = $('editor-kind').value;
  const box = $('editor-params');
  fill(box);
  for (const [key, label, value] of PARAMS[kind]) {
    box.append(el('label', {}, label, el('input', { id: `param-${key}`, value })));
  }
  if (kind === 'profile') {
    box.append(el('label', {}, 'Profile', el('select', { id: 'param-profile' },
      el('option', { value: '3g' }, '3G'), el('option', { value: 'very-bad' }, 'very bad'), el('option', { value: '100-loss' }, '100 % loss'))));
  }
}

function number(key) {
  const text = $(`param-${key}`).value.trim();
  if (text === '') return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new Error(`${key}: expected a number`);
  return value;
}

/** The fault object the admin API takes, from the kind and its fields. */
export function faultFromForm() {
  const kind = $('editor-kind').value;
  let fault;
  switch (kind) {
    case 'status': fault = { status: { code: number('code'), body: $('param-body').value, content_type: 'text/plain' } }; break;
    case 'delay': fault = { delay: { ms: number('ms') } }; break;
    case 'reset': fault = { reset: {} }; break;
    case 'close': fault = { close: { after_bytes: number('after_bytes') ?? 0 } }; break;
    case 'hang': fault = { hang: number('ms') === undefined ? {} : { ms: number('ms') } }; break;
    case 'throttle': fault = { throttle: { down_bytes_per_second: number('down_bytes_per_second') } }; break;
    case 'truncate': fault = { truncate: { keep_bytes: number('keep_bytes') } }; break;
    default: fault = { profile: $('param-profile').value };
  }
  fault.name = kind;
  const when = $('editor-when').value;
  const text = $('editor-when-value').value.trim();
  if (when === 'first_n') fault.when = { first_n: Number(text) };
  if (when === 'probability') fault.when = { probability: Number(text) };
  if (when === 'sequence') {
    fault.when = { sequence: text.split(',').map((s) => s.trim()).filter(Boolean).map((s) => (/^\d+$/.test(s) ? Number(s) : s === 'true' ? true : s === 'false' ? false : s)) };
  }
  return fault;
}

async function save() {
  $('editor-error').textContent = '';
  let rule;
  try {
    const match = {};
    const method = $('editor-method').value.trim();
    const host = $('editor-host').value.trim();
    const path = $('editor-path').value.trim();
    if (method) match.methods = [method.toUpperCase()];
    if (host) match.host = host;
    if (path) match[$('editor-path-mode').value] = path;
    rule = { name: $('editor-name').value.trim(), match, faults: [faultFromForm()] };
  } catch (error) {
    $('editor-error').textContent = error.message;
    return;
  }
  const session = $('editor-scope').value;
  try {
    if (session) await api('POST', `/sessions/${encodeURIComponent(session)}/rules`, rule);
    else await api('POST', '/rules', { ...rule, position: 'start' });
  } catch (error) {
    $('editor-error').textContent = error.message;
    return;
  }
  $('rule-editor').close();
  saved(rule.name, session);
}
