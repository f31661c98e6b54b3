// The Players screen's evening: the latest game night (games less than six hours apart), each game's
// winners, the longest game, the biggest swing and the luckiest hand of dice (docs/game-nights.md).
const $ = (id) => document.getElementById(id);
const GameViews = window.GameViews || (window.GameViews = {});
const title = (game) => (GameViews[game] && GameViews[game].title) || game;
const HOURS6 = 6 * 3600 * 1000;

function li(text, testid) {
  const item = document.createElement("li");
  item.textContent = text;
  if (testid) item.dataset.testid = testid;
  return item;
}

const who = (p) => p.name || _("a former player");
const minutes = (s) => _("{n} min", { n: Math.round(s / 60) });
const signed = (n) => (n > 0 ? `+${n}` : String(n));
const UNITS = { worms: () => _("worms"), points: () => _("points") };

// What one player's dice did, in words: how many, their mean against a fair die's, and whether the
// spread of faces looks like fair dice (the chi-square test of the end-of-game statistics).
export function diceWords(d) {
  const kind = d.faces.includes("worm") ? _("Worm dice") : _("Plain dice");
  const fair = d.p === null ? "" : d.p < 0.01 ? _("the faces spread unusually") : _("the faces spread like fair dice");
  return _("{kind}: {n} thrown in {games} games, mean {mean} (a fair die: {fair_mean}); {spread}", {
    kind, n: d.dice, games: d.games, mean: d.mean === null ? "–" : d.mean.toFixed(2),
    fair_mean: d.fair_mean.toFixed(2), spread: fair,
  });
}

export async function renderTonight() {
  const box = $("players-tonight");
  const res = await fetch("/api/nights");
  if (!res.ok) { box.hidden = true; return; }
  const { nights } = await res.json();
  const night = nights[0];
  if (!night) { box.hidden = true; return; }
  const recent = Date.now() - Date.parse(night.ended) < HOURS6;
  const heading = document.createElement("h3");
  heading.textContent = recent ? _("Tonight") : _("Last game night, {date}", { date: night.started.slice(0, 10) });
  const list = document.createElement("ul");
  list.className = "night-lines";
  for (const g of night.games) {
    const names = g.winners.map(who).join(", ") || "–";
    list.append(li(_("{game}: {winners} won", { game: title(g.game), winners: names }), "tonight-game"));
  }
  if (night.longest) {
    const game = night.games.find((g) => g.id === night.longest.id);
    list.append(li(_("Longest game: {game}, {time}", { game: title(game ? game.game : ""), time: minutes(night.longest.seconds) })));
  }
  if (night.swing) {
    const s = night.swing;
    const amount = s.series === "money"  // money as everywhere on the page ("+$240,000"), the rest with its unit
      ? (s.delta > 0 ? "+" : "") + window.formatMoney(s.delta)
      : `${signed(s.delta)} ${(UNITS[s.series] || (() => s.series))()}`;
    list.append(li(_("Biggest swing: {name}, {amount} in one move ({game})",
      { name: who(s), amount, game: title(s.game) }), "tonight-swing"));
  }
  if (night.luckiest) {
    const l = night.luckiest;
    list.append(li(_("Luckiest hand: {name}, {n} dice averaging {mean} ({game})",
      { name: who(l), n: l.dice, mean: l.mean.toFixed(2), game: title(l.game) }), "tonight-luckiest"));
  }
  box.replaceChildren(heading, list);
  box.hidden = false;
}
