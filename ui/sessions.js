// Sessions: the list, and for one its rules and request journal.
import { api } from './api.js';
import { el, fill, ms, table, statusClass } from './util.js';

const $ = (id) => document.getElementById(id);
let chosen = '';

/** Reloads the list and the chosen session. */
export async function loadSessions() {
  const list = await api('GET', '/sessions');
  const sessions = (list && list.sessions) || [];
  fill($('sessions-list'), sessions.length
    ? table('Sessions', ['Session', 'Name', 'Rules', 'Requests', 'Expires in', ''], sessions.map((s) => [
      s.id, s.name || '', String((s.rules || []).length), String(s.requests ?? 0), `${s.expires_in_s} s`,
      el('button', { type: 'button', 'data-session': s.id, onclick: () => { chosen = s.id; loadSession(); } }, 'Open'),
    ]))
    : el('p', { class: 'muted' }, 'No sessions. Tests create them with POST /sessions.'));
  if (chosen && !sessions.some((s) => s.id === chosen)) chosen = '';
  await loadSession();
}

async function loadSession() {
  const box = $('session-detail');
  if (!chosen) { fill(box); return; }
  const id = encodeURIComponent(chosen);
  const [session, journal] = await Promise.all([api('GET', `/sessions/${id}`), api('GET', `/sessions/${id}/requests`)]);
  const rules = session.rules || [];
  const entries = (journal && journal.requests) || [];
  fill(box,
    el('h3', {}, `Session ${session.name || session.id}`),
    el('p', { class: 'muted' }, `Requests carry ${session.header}: ${session.id}`),
    el('h4', {}, 'Rules'),
    rules.length ? table('Session rules', ['Rule', 'Faults'], rules.map((r) => [r.name, (r.faults || []).map((f) => `${f.name} fired ${f.stats ? f.stats.fired : 0}`).join(', ')]))
      : el('p', { class: 'muted' }, 'No rules.'),
    el('h4', {}, `Journal (${entries.length}${journal.dropped ? `, ${journal.dropped} dropped` : ''})`),
    entries.length ? table('Session journal', ['#', 'Start ms', 'Method', 'Path', 'Status', 'ms', 'Route', 'Faults', 'Retry'], entries.map((e) => [
      String(e.seq), ms(e.start_ms), e.method || '', e.path || '', el('span', { class: statusClass(e.status) }, e.status || e.error || '–'),
      ms(e.duration_ms), e.route || '', (e.faults || []).join(', '), String(e.retry),
    ]), 'journal') : el('p', { class: 'muted' }, 'No requests yet.'));
}
