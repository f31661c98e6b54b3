// The Players screen: each game's leaderboard by rating, and a player's page with their figures, rival,
// nemesis and a small chart of their rating game by game (docs/game-nights.md says how it is worked out).
import { editControls } from "./players-edit.js";
import { diceWords, renderTonight } from "./tonight.js";

const $ = (id) => document.getElementById(id);
const GameViews = window.GameViews || (window.GameViews = {});

function el(tag, cls, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text !== undefined) node.textContent = text;
  return node;
}

const title = (game) => (GameViews[game] && GameViews[game].title) || game;
const percent = (x) => `${Math.round(x * 100)}%`;
const decimal = (x) => x.toFixed(1);

async function leaderboard(game) {
  const board = await (await fetch(`/api/leaderboard/${game}`)).json();
  const table = $("players-board");
  const head = el("tr");
  head.append(el("th", "", "#"), el("th", "", _("Player")), el("th", "num", _("Rating")),
    el("th", "num", _("Games")), el("th", "num", _("Wins")));
  const rows = board.players.map((p) => {
    const tr = el("tr", "player-row");
    tr.dataset.testid = `leader-${p.place}`;
    const open = el("button", "link", p.name);
    open.type = "button";
    open.onclick = () => playerPage(p.id, game);
    const name = el("td");
    name.append(open);
    tr.append(el("td", "num", String(p.place)), name, el("td", "num", String(p.rating)),
      el("td", "num", String(p.games)), el("td", "num", String(p.wins)));
    return tr;
  });
  table.replaceChildren(head, ...rows);
  $("players-empty").hidden = rows.length > 0;
}

// The rating after each game as a line: no library, a few points in an SVG the page scales.
function ratingChart(points) {
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("viewBox", "0 0 300 90");
  svg.setAttribute("class", "rating-chart");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", _("Rating game by game"));
  const values = [1500, ...points.map((p) => p.rating)];
  const low = Math.min(...values) - 5;
  const high = Math.max(...values) + 5;
  const x = (i) => 10 + (280 * i) / Math.max(values.length - 1, 1);
  const y = (v) => 80 - (70 * (v - low)) / (high - low);
  const base = document.createElementNS(ns, "line");
  for (const [k, v] of Object.entries({ x1: 10, x2: 290, y1: y(1500), y2: y(1500), class: "start" })) base.setAttribute(k, v);
  const line = document.createElementNS(ns, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  svg.append(base, line);
  return svg;
}

async function playerPage(id, game) {
  const page = await (await fetch(`/api/players/${id}`)).json();
  const box = $("player-page");
  const mine = page.games[game] || Object.values(page.games)[0];
  const figure = (label, value) => {
    const row = el("div", "figure");
    row.append(el("span", "label", label), el("strong", "", value));
    return row;
  };
  const parts = [el("h3", "", `${page.name} · ${title(game)}`)];
  if (mine) {
    const grid = el("div", "figures");
    grid.append(
      figure(_("Rating"), String(mine.rating)),
      figure(_("Games"), String(mine.games)),
      figure(_("Wins"), String(mine.wins)),
      figure(_("Win rate"), percent(mine.win_rate)),
      figure(_("Average place"), decimal(mine.average_place)),
      figure(_("Best score"), String(mine.best_score)),
      figure(_("Average score"), decimal(mine.average_score)),
      figure(_("Longest winning streak"), String(mine.longest_streak)),
      figure(_("Last played"), mine.last_played.slice(0, 16).replace("T", " ")),
      figure(_("Rival"), mine.rival ? mine.rival.name : "–"),
      figure(_("Nemesis"), mine.nemesis ? mine.nemesis.name : "–"),
    );
    parts.push(grid, ratingChart(mine.ratings));
  }
  const dice = Object.values(page.dice || {});
  if (dice.length) {
    const list = el("ul", "night-lines");
    list.dataset.testid = "player-dice";
    list.append(...dice.map((d) => el("li", "", diceWords(d))));
    parts.push(el("h4", "", _("Their dice, every game")), list);
  }
  parts.push(await editControls(page, async () => {  // after a change: the board and this page again
    await Promise.all([leaderboard($("players-game").value), renderTonight()]);
    const still = (await fetch(`/api/players/${id}`)).ok;
    if (still) await playerPage(id, game); else box.hidden = true;
  }));
  box.replaceChildren(...parts);
  box.hidden = false;
  box.dataset.testid = "player-page";
}

async function playersDialog() {
  const select = $("players-game");
  if (!select.options.length) {
    for (const game of ["heckmeck", "lasvegas", "cincinnati", "lordsofvegas"]) {
      const opt = el("option", "", title(game));
      opt.value = game;
      select.append(opt);
    }
  }
  const current = window.currentGame && window.currentGame();
  if (current && !$("dlg-players").open) select.value = current.name;
  $("player-page").hidden = true;
  await Promise.all([leaderboard(select.value), renderTonight()]);
  if (!$("dlg-players").open) $("dlg-players").showModal();
}

export function wirePlayers() {
  $("btn-players").onclick = playersDialog;
  $("players-game").onchange = () => { $("player-page").hidden = true; leaderboard($("players-game").value); };
}
