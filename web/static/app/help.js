// The rules at hand: each game's rules in the project's own words (web/static/help/<lang>.json, one file
// per language so a test can check each is complete), opened at the part that matters for what the table
// is doing now: the secret choice during a Cincinnati choice, the gamble during a Lords of Vegas bet, how a
// payout works while its summary is open. Reached from the header (Rules) and from beside the prompt (?).

const $ = (id) => document.getElementById(id);
const GAMES = { heckmeck: "Heckmeck", lasvegas: "Las Vegas", cincinnati: "Cincinnati", lordsofvegas: "Lords of Vegas" };
const texts = {};

function language() {
  const lang = window.I18N_LANG || "en";
  return ["en", "it", "de", "ru"].includes(lang) ? lang : "en";
}

async function rules(lang) {
  if (!texts[lang]) {
    texts[lang] = fetch(`/static/help/${lang}.json`).then((r) => {
      if (!r.ok) throw new Error(`help ${lang}: ${r.status}`);
      return r.json();
    });
  }
  return texts[lang];
}

// What the open summary or big moment is about, if one is on the screen: it is what the table looks at.
function onScreen(g) {
  if ($("dlg-summary") && $("dlg-summary").open) {
    return { lasvegas: "payout", cincinnati: "clearing", lordsofvegas: "draw" }[g.name] || null;
  }
  const moment = $("moment");
  if (moment && !moment.hidden) return { failed: "failed", duel_won: "duels", gamble_result: "gamble" }[moment.dataset.kind] || null;
  return null;
}

// The section for the table's step now: each game's phases, and Lords of Vegas's waits by what they roll.
export function sectionFor(g) {
  if (!g) return null;
  if (g.outcome) return "end";
  const seen = onScreen(g);
  if (seen) return seen;
  const phase = (g.scoreboard || {}).phase;
  const aw = g.awaiting || {};
  const reason = aw.dice ? aw.dice.reason : "";
  if (g.name === "heckmeck") return { roll: "turn", take: "keep", decide: "claim", claim: "claim" }[phase] || "turn";
  if (g.name === "lasvegas") return { stock: "round", spare: "neutral", roll: "turn", place: "turn" }[phase] || "turn";
  if (g.name === "cincinnati") {
    if (phase === "throw") return reason === "chip throw" ? "chips" : "throws";
    return { cards: "cards", choose: "choose", buy: "chips", duel: "duels", challenge: "duels" }[phase] || "aim";
  }
  if (g.name === "lordsofvegas") {
    if (g.scoreboard.bet || reason === "gamble") return "gamble";
    if (reason === "boss tie") return "bosses";
    if (reason === "reorganize") return "reorganize";
    return { deal: "setup", start: "setup", draw: "draw", play: "actions" }[phase] || "aim";
  }
  return null;
}

function gameChoice(selected) {
  const select = $("help-game");
  select.replaceChildren(...Object.entries(GAMES).map(([name, title]) => {
    const o = document.createElement("option");
    o.value = name;
    o.textContent = title;
    o.selected = name === selected;
    return o;
  }));
}

function draw(all, game, now) {
  const sections = all[game] || [];
  $("help-title").textContent = _("Rules: {game}", { game: GAMES[game] || game });
  const body = $("help-body");
  const nav = $("help-nav");
  nav.replaceChildren();
  body.replaceChildren(...sections.map((s) => {
    const box = document.createElement("section");
    box.className = "help-section" + (s.id === now ? " here" : "");
    box.id = `help-${s.id}`;
    box.dataset.section = s.id;
    const h = document.createElement("h3");
    h.textContent = s.title;
    box.append(h);
    if (s.id === now) {
      const mark = document.createElement("p");
      mark.className = "help-now-mark";
      mark.textContent = _("Where the table is now");
      box.append(mark);
    }
    for (const para of s.text) {
      const p = document.createElement("p");
      p.textContent = para;
      box.append(p);
    }
    const link = document.createElement("button");
    link.type = "button";
    link.className = "secondary" + (s.id === now ? " here" : "");
    link.textContent = s.title;
    link.onclick = () => box.scrollIntoView({ block: "start" });
    nav.append(link);
    return box;
  }));
  $("dlg-help").dataset.game = game;
  $("dlg-help").dataset.section = now || "";
}

// Opens the rules of the open game (or the first game) at `section`, or at the table's step now.
export async function openHelp(section) {
  const g = window.currentGame ? window.currentGame() : null;
  const game = g && GAMES[g.name] ? g.name : "heckmeck";
  const now = section || sectionFor(g);
  const dlg = $("dlg-help");
  let all;
  try {
    all = await rules(language());
  } catch (err) {
    all = await rules("en");  // a language file that did not load: the English rules rather than none
  }
  gameChoice(game);
  draw(all, game, g && g.name === game ? now : null);
  $("help-game").onchange = () => draw(all, $("help-game").value, g && g.name === $("help-game").value ? now : null);
  if (!dlg.open) dlg.showModal();
  const target = now && document.getElementById(`help-${now}`);
  if (target) target.scrollIntoView({ block: "start" });
  else $("help-body").scrollTop = 0;
}

// The prompt's ? button says which part it opens (a test, or a curious player, can read it).
export function renderHelpNow(g) {
  const button = $("btn-help-now");
  if (!button) return;
  button.hidden = !g;
  button.dataset.section = sectionFor(g) || "";
}

export function wireHelp() {
  $("btn-help").onclick = () => openHelp(null);
  $("btn-help-now").onclick = () => openHelp(null);
  for (const el of document.querySelectorAll("[data-help-here]")) el.addEventListener("click", () => openHelp(null));
}
