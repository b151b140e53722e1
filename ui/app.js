// The dashboard's entry: checks whether a token is needed, then shows the view named in
// the URL's fragment, keeps the live stream open and refreshes the other views while shown.
import { api, setToken, onUnauthorized } from './api.js';
import { openStream } from './stream.js';
import { initExchanges, addExchanges, stats } from './exchanges.js';
import { initEditor } from './editor.js';
import { initRules, loadRules } from './rules.js';
import { loadSessions } from './sessions.js';
import { loadPins } from './pins.js';
import { loadOverview } from './overview.js';

const $ = (id) => document.getElementById(id);
const VIEWS = { overview: loadOverview, exchanges: null, rules: loadRules, sessions: loadSessions, pins: loadPins };
const REFRESH_MS = 2000;
let stream = null;
let refresh = 0;
let started = false;

// The browser tests read the event handling figures here.
window.faultlineDashboard = { stats };

function status(text) { $('status').textContent = text; }

function lock(message) {
  if (stream) { stream.close(); stream = null; }
  clearInterval(refresh);
  started = false;
  $('nav').hidden = true;
  for (const view of document.querySelectorAll('.view')) view.hidden = true;
  $('view-token').hidden = false;
  $('token-error').textContent = message || '';
  $('token-input').focus();
}

async function unlock() {
  try {
    await api('GET', '/health');
  } catch (error) {
    if (error.status === 401) { lock(sessionStorageHasToken() ? 'That token was refused.' : ''); return; }
    status(`admin API unreachable: ${error.message}`);
    return;
  }
  $('view-token').hidden = true;
  $('nav').hidden = false;
  if (!started) {
    started = true;
    const recent = await api('GET', '/exchanges?limit=400');
    addExchanges(recent.exchanges || []);
    stream = openStream(recent.newest || 0, (batch) => addExchanges(batch.exchanges, batch.skipped),
      (state) => { document.body.dataset.stream = state; status(`live stream: ${state}`); });
  }
  show();
}

function sessionStorageHasToken() { return !!sessionStorage.getItem('faultline.admin.token'); }

async function show() {
  if (!started) return;
  const name = (location.hash || '#exchanges').slice(1);
  const view = name in VIEWS ? name : 'exchanges';
  for (const [key] of Object.entries(VIEWS)) $(`view-${key}`).hidden = key !== view;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.dataset.view === view) link.setAttribute('aria-current', 'page'); else link.removeAttribute('aria-current');
  }
  clearInterval(refresh);
  const load = VIEWS[view];
  if (!load) return;
  const run = async () => {
    try {
      await load();
      document.body.dataset.loaded = view;
    } catch (error) {
      status(error.message);
    }
  };
  await run();
  refresh = setInterval(run, REFRESH_MS);
}

window.addEventListener('hashchange', show);
$('token-form').addEventListener('submit', (event) => {
  event.preventDefault();
  setToken($('token-input').value.trim());
  $('token-input').value = '';
  unlock();
});
onUnauthorized(() => lock('The admin API asks for its token.'));
initExchanges();
initEditor((name, session) => {
  status(`rule ${name} saved${session ? ` in session ${session}` : ''}`);
  document.body.dataset.saved = name;
});
initRules(status);
unlock();
