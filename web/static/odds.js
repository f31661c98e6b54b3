// The odds panel and the end-of-game statistics.
//
// The odds show when the table has switched them on for the game (at setup, or later with the PIN):
// on every tablet, or only on a tablet where a player asks (a per-tablet toggle). The numbers come
// from GET /api/odds, fetched again whenever the game moves on; every word is written here.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const h = (...a) => window.h(...a);
  // i18n.js: every word on the page goes through these two (looked up at each call: a language can
  // be loaded after this script)
  const _ = (...a) => window._(...a);
  const ngettext = (...a) => window.ngettext(...a);
  const store = window.localStorage;

  let shownFor = null; // "game:inputs:stake" of the odds on screen
  let game = null;
  let folded = store.getItem("odds:folded") === "1";

  const pct = (p) => (p > 0 && p < 0.005 ? "<1%" : p > 0.995 && p < 1 ? ">99%" : `${Math.round(p * 100)}%`);
  const signed = (x, digits = 1) => `${x >= 0 ? "+" : "−"}${window.formatNumber(Math.abs(x), digits)}`;
  const money = (x) => window.formatNumber(Math.round(x));
  const cash = (x) => window.formatMoney(Math.round(x));  // Las Vegas and Cincinnati money, "$60,000"
  // Lords of Vegas money is in millions, written $5M as on the board
  const dollars = (x) => `${x < 0 ? "−" : ""}$${Number.isInteger(x) || Math.abs(x) >= 10 ? Math.round(Math.abs(x)) : window.formatNumber(Math.abs(x), 2)}M`;
  const face = (f) => (f === "worm" ? _("worm") : String(f));

  function panel() {
    let el = $("odds-panel");
    if (!el) { // the tablet view leaves the section; an older page gets one after the options
      el = h("section", "odds-panel");
      el.id = "odds-panel";
      el.hidden = true;
      const after = $("options");
      if (after && after.parentElement) after.after(el); else document.body.append(el);
    }
    el.dataset.testid = "odds-panel";
    return el;
  }

  // Lords of Vegas: a gamble is priced at the stake entered in the tablet's gamble form (else the most)
  function formStake() {
    const input = document.querySelector('[data-testid="gamble-form"] input');
    const value = input ? parseInt(input.value, 10) : NaN;
    return value > 0 ? value : null;
  }
  function formLot() {
    const select = document.querySelector('[data-testid="gamble-form"] select');
    return select ? select.value : null;
  }

  function askedHere(g) { return store.getItem(`odds:ask:${g.id}`) === "1"; }

  // ---- called by app.js on every view -------------------------------------------------------
  function update(g) {
    game = g;
    const el = panel();
    const settings = g && g.odds;
    if (!g || !settings || !settings.on || g.outcome) {
      el.hidden = true;
      shownFor = null;
      return;
    }
    el.hidden = false;
    const ask = settings.where === "ask";
    const shown = ask ? askedHere(g) : !folded;
    const head = h("div", "odds-head");
    const title = h("button", "odds-title", `${shown ? "▾" : "▸"} ${_("Odds")}`);
    title.type = "button";
    title.dataset.testid = "odds-toggle";
    title.setAttribute("aria-expanded", String(shown));
    title.onclick = () => {
      if (ask) store.setItem(`odds:ask:${g.id}`, shown ? "0" : "1");
      else { folded = !folded; store.setItem("odds:folded", folded ? "1" : "0"); }
      shownFor = null;
      update(game);
    };
    head.append(title);
    if (!shown) {
      if (ask) head.append(h("span", "odds-hint", _("Tap to see the odds on this tablet")));
      el.replaceChildren(head);
      shownFor = null;
      return;
    }
    const body = el.querySelector(".odds-body") || h("div", "odds-body");
    el.replaceChildren(head, body);
    const stake = g.name === "lordsofvegas" ? formStake() : null;
    const key = `${g.id}:${g.inputs}:${stake}`;
    if (key === shownFor) return;
    shownFor = key;
    fetch(`/api/odds${stake ? `?stake=${stake}` : ""}`).then((r) => r.json()).then((data) => {
      if (shownFor !== key) return;
      // refused while a secret is open (face-down money, a secret choice): the reason, not old odds
      if (!data.odds) { body.replaceChildren(h("p", "odds-none", data.error || _("No odds for this step."))); return; }
      const view = VIEWS[data.odds.game];
      body.replaceChildren(...(view ? view(data.odds, g) : []));
      if (!body.childElementCount) body.append(h("p", "odds-none", _("No odds for this step.")));
    }).catch((e) => { shownFor = null; console.error("odds:", e); });
  }

  function line(cls, ...parts) {
    const p = h("div", `odds-line ${cls || ""}`);
    p.append(...parts.map((x) => (typeof x === "string" ? document.createTextNode(x) : x)));
    return p;
  }
  function star(best) { return best ? h("span", "odds-best", `★ ${_("best")}`) : ""; }
  function name(g, seat) { return seat === null || seat === undefined ? "" : g.players[seat] || _("white dice"); }

  // ---- Heckmeck -----------------------------------------------------------------------------
  function ending(e, g) {
    if (e.tile === null) return _("no tile {p}", { p: pct(e.p) });
    if (e.victim !== null && e.victim !== undefined) return _("steal {tile} from {name} {p}", { tile: e.tile, name: name(g, e.victim), p: pct(e.p) });
    return _("{tile} {p}", { tile: e.tile, p: pct(e.p) });
  }
  function endings(list, g) {
    const top = list.filter((e) => e.tile !== null).sort((a, b) => b.p - a.p).slice(0, 4);
    return h("span", "odds-endings", top.map((e) => ending(e, g)).join(" · "));
  }
  function heckmeck(o, g) {
    const out = [];
    if (o.start) {
      out.push(line("", _("This turn: a tile {p}, worms {w} (best play); safest play {safe}",
        { p: pct(o.start.p_tile), w: signed(o.start.worms), safe: pct(o.start.p_tile_max) })));
      const grid = h("div", "odds-reach");
      grid.dataset.testid = "odds-reach";
      const grill = new Set(g.scoreboard.grill.map((t) => t.tile));
      for (const r of o.reach) {
        const cell = h("span", grill.has(r.tile) ? "on-grill" : "off-grill", `${r.tile}+ ${pct(r.p)}`);
        cell.title = _("Chance to reach at least {tile} this turn", { tile: r.tile });
        grid.append(cell);
      }
      out.push(grid);
    }
    const keeps = [...(o.keeps || [])].sort((a, b) => b.worms - a.worms);  // the best first
    for (const k of keeps) {
      const row = line(k.best ? "best" : "", _("Keep {n} × {face} ({total}): tile {p}, worms {w}",
        { n: k.count, face: face(k.face), total: k.total, p: pct(k.p_tile), w: signed(k.worms) }), " ", star(k.best));
      if (k === keeps[0]) row.append(endings(k.endings, g));
      out.push(row);
    }
    if (o.reroll) {
      const row = line(o.best === "reroll" ? "best" : "", _("Roll on: tile {p}, worms {w}", { p: pct(o.reroll.p_tile), w: signed(o.reroll.worms) }), " ", star(o.best === "reroll"));
      row.append(endings(o.reroll.endings, g));
      out.push(row);
    }
    if (o.stop) {
      const e = o.stop.endings[0];
      out.push(line(o.best === "stop" ? "best" : "", _("Stop now: {what}, worms {w}", { what: ending({ ...e, p: 1 }, g).replace(/ 100%$/, ""), w: signed(o.stop.worms) }), " ", star(o.best === "stop")));
    }
    return out;
  }

  // ---- Las Vegas ----------------------------------------------------------------------------
  function lasvegas(o, g) {
    const me = o.player;
    return o.choices.map((c) => {
      const dice = c.white ? _("{own} + {white} white", { own: c.own, white: c.white }) : ngettext("{n} die", "{n} dice", c.own);
      const after = c.casino_after;
      const lead = after.paid.length ? after.paid.map((s) => `${name(g, s.seat === -1 ? null : s.seat) || _("white")} ${s.note ? cash(s.note) : "—"}`).join(", ") : "—";
      const tied = after.tied_out.length ? ` · ${_("tied out: {who}", { who: after.tied_out.map((t) => t.seats.map((s) => (s === -1 ? _("white") : name(g, s))).join("/")).join(", ") })}` : "";
      const e = c.expected;
      const row = line(c.best ? "best" : "",
        _("Casino {n} ({dice}): now {lead}{tied}", { n: c.face, dice, lead, tied }), " · ",
        _("you now {now}, expected {mean} ± {err}", { now: cash(c.if_ended_now[me]), mean: cash(e.mean), err: cash(e.half_width) }),
        " ", star(c.best));
      row.title = ngettext("{n} simulated round end", "{n} simulated round ends", e.rollouts);
      return row;
    });
  }

  // ---- Cincinnati ---------------------------------------------------------------------------
  const CATEGORY = {
    five_of_a_kind: () => _("five of a kind"), four_of_a_kind: () => _("four of a kind"),
    large_straight: () => _("large straight"), full_house: () => _("full house"),
    three_of_a_kind: () => _("three of a kind"), small_straight: () => _("small straight"),
    two_pair: () => _("two pair"), pair: () => _("pair"), nothing: () => _("nothing"),
  };
  function cincinnati(o, g) {
    const out = [];
    for (const p of o.players) {
      const where = p.duel ? _("duel") : _("table {t}", { t: p.table });
      out.push(line("odds-who", _("{name} ({where}), dice {dice}", { name: name(g, p.seat), where, dice: p.dice.join(" ") })));
      const keeps = [...p.keeps].sort((a, b) => b.beat - a.beat).slice(0, 3);
      for (const k of keeps) {
        const likely = Object.entries(k.categories).sort((a, b) => b[1] - a[1]).slice(0, 2)
          .map(([c, q]) => `${CATEGORY[c] ? CATEGORY[c]() : c} ${pct(q)}`).join(", ");
        const kept = k.keep.length ? k.keep.join(" ") : _("nothing");
        const text = p.duel
          ? _("Keep {kept}: win {beat}, same hand {tie} · {likely}", { kept, beat: pct(k.beat), tie: pct(k.tie), likely })
          : _("Keep {kept}: meets {meets}, beats the best shown {beat} · {likely}", { kept, meets: pct(k.meets), beat: pct(k.beat), likely });
        out.push(line(k.best ? "best" : "", text, " ", star(k.best)));
      }
    }
    return out;
  }

  // ---- Lords of Vegas -----------------------------------------------------------------------
  function bet(b) {
    return _("win {win} (double {double}), lose {lose}; you expect {ev}", {
      win: pct(b.p_win + b.p_double), double: pct(b.p_double), lose: pct(b.p_lose), ev: dollars(b.gambler),
    });
  }
  function lordsofvegas(o, g) {
    const out = [];
    if (o.bet) out.push(line("", _("This bet ({amount}): ", { amount: dollars(o.bet.amount) }), bet(o.bet)));
    if (o.bet_laid_off) out.push(line("", _("Laid off: "), bet(o.bet_laid_off)));
    const lot = formLot();
    const gambles = [...o.gambles].sort((a, b) => (b.lot === lot) - (a.lot === lot)).slice(0, 2);
    for (const x of gambles) {
      out.push(line(x.lot === lot ? "best" : "", _("Gamble {amount} at {lot} (boss {boss}): ", { amount: dollars(x.amount), lot: x.lot, boss: name(g, x.boss) }), bet(x)));
    }
    for (const r of (o.reorganize || []).filter((x) => x.bosses.length > 1).slice(0, 3)) {
      const keeps = r.p_boss_keeps === null ? "" : _(", boss {who} keeps it {p}", { who: name(g, r.boss), p: pct(r.p_boss_keeps) });
      const how = r.method === "sampled" ? ` (${_("sampled")})` : "";
      out.push(line("", _("Reorganize {lot} ({cost}): you boss {p}{keeps}{how}", { lot: r.lot, cost: dollars(r.cost), p: pct(r.p_mine), keeps, how })));
    }
    const paying = [...o.payouts].sort((a, b) => b.p_pays - a.p_pays).slice(0, 4);
    for (const c of paying) {
      const who = c.money.map((m) => `${name(g, m.seat)} ${dollars(m.expected)}`).join(", ");
      out.push(line("", _("{lot} pays on the next card {p}: expected {who}", { lot: c.lot, p: pct(c.p_pays), who })));
    }
    return out;
  }

  const VIEWS = { heckmeck, lasvegas, cincinnati, lordsofvegas };

  // ---- the switch: at setup, and for the open game with the PIN --------------------------------
  function setupFields() {
    const options = $("new-options");
    if (!options || $("new-odds")) return;
    const box = h("fieldset", "odds-setup");
    box.id = "new-odds";
    box.append(h("legend", "", _("Odds")));
    const on = h("input");
    on.type = "checkbox"; on.id = "new-odds-on"; on.dataset.testid = "new-odds-on";
    const where = h("select");
    where.id = "new-odds-where"; where.dataset.testid = "new-odds-where";
    for (const [v, text] of [["all", _("on every tablet")], ["ask", _("where a player asks")]]) {
      const opt = h("option", "", text); opt.value = v; where.append(opt);
    }
    const l1 = h("label", "option-field"); l1.append(on, ` ${_("Show the odds")} `, where);
    box.append(l1);
    options.after(box);
  }
  function setupChoice() {
    const on = $("new-odds-on");
    return on ? { on: on.checked, where: $("new-odds-where").value } : undefined;
  }

  function settingsFields() {
    const dlg = $("dlg-settings");
    if (!dlg || $("odds-settings")) return;
    const box = h("fieldset", "odds-setup");
    box.id = "odds-settings";
    box.append(h("legend", "", _("Odds for this game (the table's PIN)")));
    const on = h("input"); on.type = "checkbox"; on.dataset.testid = "odds-on";
    const where = h("select"); where.dataset.testid = "odds-where";
    for (const [v, text] of [["all", _("on every tablet")], ["ask", _("where a player asks")]]) {
      const opt = h("option", "", text); opt.value = v; where.append(opt);
    }
    const label = h("label", "option-field"); label.append(on, ` ${_("Show the odds")} `, where);
    box.append(label);
    const send = () => window.callApi("/api/odds/settings", { on: on.checked, where: where.value }, { method: "PUT" }).catch(() => refresh());
    const refresh = () => {
      const s = game && game.odds;
      box.hidden = !s;
      if (s) { on.checked = s.on; where.value = s.where; }
    };
    on.onchange = send;
    where.onchange = send;
    dlg.addEventListener("toggle", refresh);
    const fields = dlg.querySelectorAll("fieldset");
    (fields.length ? fields[fields.length - 1] : dlg.querySelector("h2")).after(box);
    refresh();
  }

  // ---- end-of-game statistics, in the results ---------------------------------------------------
  const SERIES = { worms: () => _("worms"), money: () => _("money"), points: () => _("points") };
  function clock(seconds) {
    if (seconds === null || seconds === undefined) return "—";
    const s = Math.round(seconds);
    return s < 60 ? _("{s} s", { s }) : _("{m} min {s} s", { m: Math.floor(s / 60), s: s % 60 });
  }
  async function showStats() {
    const g = game;
    const dlg = $("dlg-end");
    if (!g || !g.outcome || !dlg) return;
    let box = $("end-stats");
    if (!box) {
      box = h("section", "end-stats");
      box.id = "end-stats";
      box.dataset.testid = "end-stats";
      const length = $("end-length");  // under the ranking and the game's length, above the chart
      if (length) length.after(box); else dlg.querySelector("form").append(box);
    }
    box.replaceChildren(h("h3", "", _("The game in numbers")));
    let s;
    try { s = await (await fetch(`/api/games/${g.id}/stats`)).json(); } catch (e) { return; }
    if (!s || !s.dice) return;
    const table = h("table", "stats-table");
    const head = h("tr");
    head.append(h("th", "", ""), h("th", "", _("Dice")), h("th", "", _("Average face")), h("th", "", _("Fair dice?")), h("th", "", _("Time")), h("th", "", _("Turns")));
    if (s.busts) head.append(h("th", "", _("Failed turns")));
    table.append(head);
    for (const d of s.dice) {
      const tr = h("tr", d.seat === s.luckiest ? "luckiest" : "");
      const t = s.time.per_player[d.seat];
      // in words: a p-value means nothing at the table
      const fair = d.p === null ? "—" : d.p < 0.05 ? _("the dice looked unusual") : _("the dice looked fair");
      tr.append(
        h("th", "", s.players[d.seat] + (d.seat === s.luckiest ? ` ★ ${_("luckiest roller")}` : "")),
        h("td", "", String(d.dice)),
        h("td", "", d.mean === null ? "—" : _("{mean} (fair {fair})", { mean: window.formatNumber(d.mean, 2), fair: window.formatNumber(d.fair_mean, 2) })),
        h("td", "", fair),
        h("td", "", clock(t.seconds)),
        h("td", "", String(t.turns)),
      );
      if (s.busts) tr.append(h("td", "", String(s.busts[d.seat])));
      table.append(tr);
    }
    box.append(table);
    const notes = [];
    // a swing of money is written as money: dollars, or millions in Lords of Vegas
    const swingOf = (x) => (!s.swing || s.swing.series !== "money" ? money(x) : g.name === "lordsofvegas" ? `$${window.formatNumber(x)}M` : cash(x));
    if (s.swing) notes.push(_("Biggest swing: {name} {delta} {what}", { name: s.players[s.swing.seat], delta: (s.swing.delta >= 0 ? "+" : "−") + swingOf(Math.abs(s.swing.delta)), what: s.swing.series === "money" ? "" : SERIES[s.swing.series] ? SERIES[s.swing.series]() : s.swing.series }).trim());  // "$" says money
    if (s.time.mean_turn_seconds !== null) notes.push(_("A turn took {t} on average", { t: clock(s.time.mean_turn_seconds) }));
    if (s.money_per_casino) {
      const best = s.money_per_casino.map((row, seat) => {
        const top = row.indexOf(Math.max(...row));
        return _("{name} won most at casino {n} ({money})", { name: s.players[seat], n: top + 1, money: cash(row[top]) });
      });
      notes.push(best.join("; "));
    }
    box.append(...notes.map((n) => h("p", "hint", n)));
  }

  document.addEventListener("input", (e) => {
    if (game && e.target.closest && e.target.closest('[data-testid="gamble-form"]')) { shownFor = null; update(game); }
  });
  document.addEventListener("change", (e) => {
    if (game && e.target.closest && e.target.closest('[data-testid="gamble-form"]')) { shownFor = null; update(game); }
  });
  document.addEventListener("DOMContentLoaded", () => {
    panel();
    setupFields();
    settingsFields();
    const dlg = $("dlg-end");
    if (dlg) new MutationObserver(() => { if (dlg.open) showStats(); }).observe(dlg, { attributes: true, attributeFilter: ["open"] });
    const newDlg = $("dlg-new");
    if (newDlg) new MutationObserver(() => { if (newDlg.open) { setupFields(); const on = $("new-odds-on"); if (on) on.checked = false; } }).observe(newDlg, { attributes: true, attributeFilter: ["open"] });
  });

  window.Odds = { update, setupChoice, showStats };
})();
