// The live exchange table: recent exchanges, then the stream; filters, pause and clear.
// Rows are added once per animation frame whatever the event rate, and the table holds at
// most MAX_ROWS rows, so a busy proxy cannot make the page sluggish.
import { el, fill, ms, statusClass } from './util.js';
import { showDetail } from './detail.js';

const MAX_KEPT = 2000;
const MAX_ROWS = 400;

const state = { all: [], held: [], pending: [], paused: false, frame: 0, selected: 0, routes: new Set(), sessions: new Set() };

/** Event handling figures, read by the browser tests (time spent per batch and per frame). */
export const stats = { batches: 0, exchanges: 0, skipped: 0, handleMsMax: 0, handleMsTotal: 0, frames: 0, frameMsMax: 0, frameMsTotal: 0 };

const $ = (id) => document.getElementById(id);

/** Wires the filters, pause and clear. */
export function initExchanges() {
  $('filters').addEventListener('submit', (event) => event.preventDefault());
  for (const id of ['filter-text', 'filter-status', 'filter-route', 'filter-session', 'filter-faulted']) {
    $(id).addEventListener('input', rerender);
  }
  $('pause').addEventListener('click', () => {
    state.paused = !state.paused;
    $('pause').setAttribute('aria-pressed', String(state.paused));
    $('pause').textContent = state.paused ? 'Resume' : 'Pause';
    if (!state.paused) {
      keep(state.held);
      state.pending.push(...state.held);
      state.held = [];
      schedule();
    }
    count();
  });
  $('clear').addEventListener('click', () => {
    state.all = []; state.held = []; state.pending = [];
    fill($('exchange-rows'));
    $('detail').hidden = true;
    count();
  });
  $('exchange-rows').addEventListener('click', (event) => open(event.target.closest('tr')));
  $('exchange-rows').addEventListener('keydown', (event) => {
    if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); open(event.target.closest('tr')); }
  });
}

/** Adds exchanges (oldest first) from the recent list or a stream batch. */
export function addExchanges(list, skipped = 0) {
  const start = performance.now();
  stats.batches += 1;
  stats.exchanges += list.length;
  stats.skipped += skipped;
  for (const exchange of list) {
    if (exchange.route && !state.routes.has(exchange.route)) addOption('filter-route', state.routes, exchange.route);
    if (exchange.session && !state.sessions.has(exchange.session)) addOption('filter-session', state.sessions, exchange.session);
  }
  if (state.paused) {
    state.held.push(...list);
    if (state.held.length > MAX_KEPT) state.held.splice(0, state.held.length - MAX_KEPT);
  } else {
    keep(list);
    state.pending.push(...list);
    if (state.pending.length > MAX_ROWS) state.pending.splice(0, state.pending.length - MAX_ROWS);
    schedule();
  }
  const spent = performance.now() - start;
  stats.handleMsTotal += spent;
  stats.handleMsMax = Math.max(stats.handleMsMax, spent);
}

function keep(list) {
  state.all.push(...list);
  if (state.all.length > MAX_KEPT) state.all.splice(0, state.all.length - MAX_KEPT);
}

function addOption(id, set, value) {
  set.add(value);
  $(id).append(el('option', { value }, value));
}

function schedule() {
  if (!state.frame) state.frame = requestAnimationFrame(render);
}

function render() {
  const start = performance.now();
  state.frame = 0;
  const filter = currentFilter();
  const fresh = state.pending.filter((x) => matches(x, filter));
  state.pending = [];
  const body = $('exchange-rows');
  if (fresh.length) {
    const fragment = document.createDocumentFragment();
    for (let i = fresh.length - 1; i >= 0; i -= 1) fragment.append(row(fresh[i]));
    body.prepend(fragment);
    while (body.rows.length > MAX_ROWS) body.lastElementChild.remove();
  }
  count();
  const spent = performance.now() - start;
  stats.frames += 1;
  stats.frameMsTotal += spent;
  stats.frameMsMax = Math.max(stats.frameMsMax, spent);
}

function rerender() {
  const filter = currentFilter();
  const shown = [];
  for (let i = state.all.length - 1; i >= 0 && shown.length < MAX_ROWS; i -= 1) {
    if (matches(state.all[i], filter)) shown.push(row(state.all[i]));
  }
  state.pending = [];
  fill($('exchange-rows'), shown);
  count();
}

function count() {
  const held = state.paused && state.held.length ? ` (${state.held.length} held while paused)` : '';
  $('exchange-count').textContent = `${$('exchange-rows').rows.length} shown${held}, ${stats.skipped} not streamed under load`;
}

function currentFilter() {
  return {
    text: $('filter-text').value.trim().toLowerCase(),
    status: $('filter-status').value,
    route: $('filter-route').value,
    session: $('filter-session').value,
    faulted: $('filter-faulted').checked,
  };
}

function matches(x, f) {
  if (f.faulted && !(x.faults && x.faults.length)) return false;
  if (f.route && x.route !== f.route) return false;
  if (f.session && x.session !== f.session) return false;
  if (f.status === 'error' && x.status) return false;
  if (f.status && f.status !== 'error' && String(Math.floor((x.status || 0) / 100)) !== f.status) return false;
  if (f.text) {
    const hay = `${x.method} ${x.host} ${x.path}${x.query ? `?${x.query}` : ''} ${x.status || x.error} ${x.route} ${x.session} ${(x.faults || []).join(' ')}`.toLowerCase();
    if (!hay.includes(f.text)) return false;
  }
  return true;
}

function row(x) {
  return el('tr', { class: 'row', tabindex: '0', 'data-seq': x.seq, 'aria-selected': x.seq === state.selected ? 'true' : 'false' },
    el('td', {}, x.method || '–'),
    el('td', {}, x.host || '–'),
    el('td', { class: 'path', title: x.path || '' }, x.path || '–'),
    el('td', { class: statusClass(x.status) }, x.status || x.error || '–'),
    el('td', {}, ms(x.duration_ms)),
    el('td', {}, x.route || ''),
    el('td', {}, x.session || ''),
    el('td', {}, (x.faults || []).map((f) => el('span', { class: 'tag' }, f))),
    el('td', {}, x.pin || ''));
}

function open(tr) {
  if (!tr || !tr.dataset.seq) return;
  state.selected = Number(tr.dataset.seq);
  for (const other of $('exchange-rows').querySelectorAll('tr[aria-selected="true"]')) other.setAttribute('aria-selected', 'false');
  tr.setAttribute('aria-selected', 'true');
  showDetail(state.selected);
}
