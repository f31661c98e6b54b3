// The score strip: every player, big digits, the one to act now unmistakable.
import { badge, initials, seatColours } from "./pieces.js";

const GameViews = window.GameViews || (window.GameViews = {});
const $ = (id) => document.getElementById(id);

export function renderScores(g) {
  if (!g) { $("scores").replaceChildren(); return; }
  const gv = GameViews[g.name] || {};
  const rows = gv.scores ? gv.scores(g.scoreboard, g) : g.players.map((name) => ({ values: [] }));
  const colours = seatColours(g);
  const marks = initials(g.players);
  const acting = new Set(g.awaiting.players);
  const winners = new Set(g.outcome ? g.outcome.winners : []);
  $("scores").dataset.count = String(g.players.length);
  $("scores").replaceChildren(...g.players.map((name, i) => {
    const row = rows[i] || { values: [] };
    const card = document.createElement("div");
    const current = !g.outcome && acting.has(i);
    card.className = "score-card" + (current ? " current" : "") + (winners.has(i) ? " winner" : "");
    card.dataset.testid = `score-card-${i}`;
    card.dataset.seat = String(i);
    const head = document.createElement("div");
    head.className = "score-name";
    const label = document.createElement("span");
    label.className = "score-player";
    label.textContent = name;
    head.append(badge(colours[i], marks[i]), label);
    if (current) {
      const now = document.createElement("span");
      now.className = "now";
      now.textContent = _("to play");
      head.append(now);
    }
    if (winners.has(i)) {
      const won = document.createElement("span");
      won.className = "now";
      won.textContent = _("winner");
      head.append(won);
    }
    const nums = document.createElement("div");
    nums.className = "score-values";
    for (const val of row.values) {
      const box = document.createElement("span");
      box.className = "score-value";
      const big = document.createElement("span");
      big.className = "big";
      const thousands = /^(.*\d)(k)$/.exec(val.text);  // "590k": a smaller k keeps five cards' digits whole
      if (thousands) {
        const k = document.createElement("span");
        k.className = "suffix";
        k.textContent = thousands[2];
        big.append(thousands[1], k);
      } else {
        big.textContent = val.text;
      }
      if (val.testid) big.dataset.testid = val.testid;
      const unit = document.createElement("span");
      unit.className = "unit";
      unit.textContent = val.unit || "";
      box.append(big, unit);
      nums.append(box);
    }
    if (row.extra) nums.append(row.extra);
    card.append(head, nums);
    if (row.detail) {
      const d = document.createElement("div");
      d.className = "score-detail";
      d.textContent = row.detail;
      card.append(d);
    }
    return card;
  }));
}
