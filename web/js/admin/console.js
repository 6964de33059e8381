// console: the operator's console at /admin/ (web/admin.html): sign-in,
// and the views: the queue (queue.js), a run (run.js), the admin log
// (log.js). The admin token is kept in memory only (session.js).
import { byId } from '../api.js';
import { signIn, signOut, describeError } from './session.js';
import { wireActions } from './actions.js';
import { wireQueue, loadQueue, reloadQueue } from './queue.js';
import { showRun } from './run.js';
import { wireLog, loadLog } from './log.js';
import { forgetPlayers } from './players.js';

const VIEWS = ['signin', 'queue', 'run', 'log'];

function show(view) {
  for (const v of VIEWS) byId(v).hidden = v !== view;
  byId('nav').hidden = view === 'signin';
  document.body.dataset.view = view;
}

async function onSignIn(ev) {
  ev.preventDefault();
  const field = byId('token');
  const err = byId('signin-error');
  err.hidden = true;
  signIn(field.value.trim());
  field.value = ''; // the field does not keep it either
  try {
    await loadQueue('');
    show('queue');
  } catch (e) {
    signOut();
    err.textContent = describeError(e);
    err.dataset.status = String(e.status);
    err.hidden = false;
  }
}

async function openRun(item) {
  show('run');
  const changed = () => { forgetPlayers(); showRun(item, changed); reloadQueue(); };
  await showRun(item, changed);
}

// Signing out forgets the token and clears what the views showed.
function onSignOut() {
  signOut();
  forgetPlayers();
  for (const id of ['queue-body', 'run-sides', 'log-body']) byId(id).replaceChildren();
  show('signin');
}

wireActions();
wireLog();
wireQueue(openRun);
byId('signin-form').addEventListener('submit', onSignIn);
byId('nav-queue').addEventListener('click', () => { show('queue'); reloadQueue(); });
byId('nav-log').addEventListener('click', () => { show('log'); loadLog(); });
byId('run-back').addEventListener('click', () => { show('queue'); reloadQueue(); });
byId('nav-signout').addEventListener('click', onSignOut);
show('signin');
document.body.dataset.ready = 'true';
