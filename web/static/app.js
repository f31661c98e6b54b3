// The tablet: one live view of the table, sent whole by the server on every change (SSE). Each part
// of the page is a component in app/, drawn as a function of the view; this module wires them.
import { call, submit, whenPinNeeded } from "./app/api.js";
import { renderBoard } from "./app/board.js";
import { markChanges } from "./app/changes.js";
import { renderDicePad, wireDicePad } from "./app/dice-pad.js";
import { wireGamesList } from "./app/games-list.js";
import { renderHistoryButton, wireHistory } from "./app/history.js";
import { renderHelpNow, wireHelp } from "./app/help.js";
import { renderMoment, wireMoment } from "./app/moments.js";
import { rematch, wireNewGame } from "./app/new-game.js";
import { renderNightLine } from "./app/night-line.js";
import { renderOptions } from "./app/options.js";
import { badge, dieEl, initials, seatColours, wormIcon } from "./app/pieces.js";
import { askPin, wirePin } from "./app/pin.js";
import { wirePlayers } from "./app/players.js";
import { renderPrompt } from "./app/prompt.js";
import { renderScores } from "./app/scores.js";
import { renderSeatsButton, wireSeats } from "./app/seats.js";
import { keepView, latestGame, latestView } from "./app/state.js";
import { renderStatus, wireStatus } from "./app/status.js";
import { listen, offAgainIfOffline } from "./app/stream.js";
import { renderUndo, wireUndo } from "./app/undo.js";
import { hearVoice, wireVoice } from "./app/voice.js";

// The whole page from one view; with no game open each component clears itself.
function render(v) {
  keepView(v);
  document.body.dataset.version = String(v.version);  // lets a test (or a curious player) see the page caught up
  const g = v.game;
  for (const el of document.querySelectorAll("main button, main input, main select")) el.disabled = false;
  renderStatus(v.status);
  document.body.dataset.game = g ? g.name : "";
  renderHistoryButton(g);
  renderSeatsButton();
  if (window.Tablet) {
    window.Tablet.keepAwake(!!g && !g.outcome);
    if (g) window.Tablet.turn(g.outcome ? null : `${g.id}:${g.awaiting.players.join(",")}`);
  }
  renderPrompt(g);
  renderMoment(g);
  renderScores(g);
  renderOptions(g);
  renderDicePad(g, v.status.devices || {}, v.version);
  renderBoard(g);
  markChanges(g);
  renderHelpNow(g);
  renderUndo(g);
  if (!g) document.getElementById("summary-bar").hidden = true;
  else if (window.Summary) window.Summary.update(g);
  if (window.Odds) window.Odds.update(g || null);
  hearVoice(v);  // says the view's new announcements, once, if this tablet's voice is on
  offAgainIfOffline();
}

function redraw() {
  const v = latestView();
  if (v) render(v);
}

// What the classic scripts (games/*.js, summary.js, odds.js, calibration.js) and the browser tests
// reach through window.
Object.assign(window, {
  callApi: call, submitAction: submit, rerender: redraw, currentGame: latestGame,
  dieEl, wormIcon, badge, initials, seatColours, rematch, renderNightLine,
});

whenPinNeeded(askPin);

document.addEventListener("DOMContentLoaded", () => {
  wirePin();
  wireStatus();
  wireNewGame();
  wireGamesList();
  wirePlayers();
  wireHistory();
  wireDicePad();
  wireUndo();
  wireVoice();
  wireMoment();
  wireSeats();
  wireHelp();
  listen(render, redraw);
});
