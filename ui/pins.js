// Pins: per upstream the live and candidate verdict counters, candidate readiness, the last
// verified chain with each certificate's pin, the last failures; and the reports apps sent.
import { api } from './api.js';
import { el, fill, definitions, table } from './util.js';

const $ = (id) => document.getElementById(id);

/** Reloads the pin status. */
export async function loadPins() {
  const pins = await api('GET', '/pins');
  const upstreams = Object.entries(pins.upstreams || {});
  fill($('pins-list'), upstreams.length ? upstreams.map(([name, u]) => card(name, u))
    : el('p', { class: 'muted' }, 'No upstream has pins configured.'));
  const reports = pins.reports || {};
  const list = reports.reports || [];
  fill($('pin-reports'),
    el('p', { class: 'muted' }, `${reports.total ?? 0} received, ${reports.kept ?? 0} kept.`),
    list.length ? table('Pin failure reports', ['Received', 'Host', 'App', 'Result'], list.map((r) => [
      r.received || r.time || '', r.hostname || r.host || '', r.app ? `${r.app.bundle_id || ''} ${r.app.version || ''}` : '', r.validation_result || r.result || '',
    ])) : null);
}

function card(name, u) {
  const candidate = u.candidate || {};
  const live = u.live || {};
  const failing = candidate.failed > 0;
  return el('article', { class: 'pin', 'aria-label': `pins of ${name}`, 'data-upstream': name },
    el('h3', {}, name),
    definitions([
      ['Server name', u.server_name],
      ['Handshakes', String(u.handshakes ?? 0)],
      ['Live set', `${live.passed ?? 0} passed, ${live.failed ?? 0} failed`],
      ['Candidate set', el('span', { class: failing ? 'verdict-bad candidate-state' : 'verdict-ok candidate-state' },
        `${candidate.passed ?? 0} passed, ${candidate.failed ?? 0} failed`)],
      ['candidate.ready', el('span', { class: candidate.ready ? 'verdict-ok' : 'verdict-bad', 'data-ready': String(!!candidate.ready) }, candidate.ready ? 'ready' : 'not ready')],
      ['Last verdicts', [u.last_verdict, u.last_candidate_verdict].filter(Boolean).join(' / ')],
      ['Last matches', (u.last_matches || []).join(', ')],
    ]),
    el('h4', {}, 'Last verified chain'),
    (u.last_chain || []).length ? table(`Chain of ${name}`, ['#', 'Subject', 'Pin'], u.last_chain.map((c) => [String(c.position), c.subject, c.pin]))
      : el('p', { class: 'muted' }, 'No handshake yet.'),
    failure('Last live failure', u.last_live_failure),
    failure('Last candidate failure', u.last_candidate_failure));
}

function failure(title, f) {
  if (!f) return null;
  return [el('h4', {}, title), definitions([['Date', f.date], ['Verdict', f.verdict || f.candidate_verdict], ['Matches', (f.matches || []).join(', ') || 'none'],
    ['Candidate matches', (f.candidate_matches || []).join(', ') || 'none']]),
  table(`${title}: chain`, ['#', 'Subject', 'Pin'], (f.chain || []).map((c) => [String(c.position), c.subject, c.pin]))];
}
