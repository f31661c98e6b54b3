// Lords of Vegas board: the 48 lots around The Strip, tiles and dice, casinos and bosses, money and points.
"use strict";
// One player's turn: whose it is, and the draw that opened it (a tie's reroll by others is not theirs).
function turnOf(g) {
  return `${g.id}:${g.awaiting.players.join(",")}:${g.scoreboard.deck.count}`;
}

// With two players an F card pays and the drawer draws again: with the companion's deck the whole chain
// arrives in one view, so the summary of the last draw also tells the F draws before it, from the log.
function redrawsBefore(log, paid) {
  let last = -1;
  for (let i = log.length - 1; i >= 0 && last < 0; i--) if (log[i].kind === "drew") last = i;
  if (last < 0 || log[last].data.card !== paid.card) return [];
  const out = [];
  let end = last;
  for (let i = last - 1; i >= 0; i--) {
    if (log[i].kind !== "drew") continue;
    if (!log[i + 1] || log[i + 1].kind !== "blocked") break;  // not an F card out of play: the chain ends
    out.unshift({ card: log[i].data.card, lines: log.slice(i + 2, end) });
    end = i;
  }
  return out.map((r, k) => ({ ...r, number: paid.number - out.length + k }));
}
(function () {
  const LEFT = [["A", 2], [null, 1], ["C", 4], [null, 1], ["E", 2]];
  const RIGHT = [["B", 2], [null, 1], ["D", 3], [null, 1], ["F", 3]];
  const TILE = { purple: "#5e35b1", gold: "#d4a017", aqua: "#26a69a", silver: "#b0bec5", brown: "#6d4c41" };
  const TILE_INK = { purple: "#fff", brown: "#fff" };  // dark tiles take white writing (contrast)

  function place(blocks) {
    // block letter -> first grid row (1-based) of that block
    const rows = {};
    let row = 1;
    for (const [block, n] of blocks) { if (block) rows[block] = row; row += n; }
    return rows;
  }
  const ROW = { ...place(LEFT), ...place(RIGHT) };
  const COL = { A: 0, C: 0, E: 0, B: 4, D: 4, F: 4 };
  const CSS = { blue: "#1e88e5", green: "#43a047", red: "#e53935", yellow: "#fdd835", purple: "#7e57c2", orange: "#fb8c00", black: "#222", white: "#fff" };

  (window.GameViews || (window.GameViews = {})).lordsofvegas = {
    title: "Lords of Vegas",
    options: [
      { key: "lay_off", type: "bool", label: _("Gamble lay-off"), hint: _("(the boss covers half a bet, the bank the rest)") },
      { key: "virtual_deck", type: "bool", label: _("The companion draws the cards"), hint: _("(no physical deck needed)") },
    ],
    colours: ["blue", "green", "red", "yellow"],
    colourOption: true,
    firstByRollOff: true,
    scoreName: _("Points"),
    roundName: _("Round"),
    // a lot tapped on the board narrows the moves to it for this turn only: a zoom left on would quietly
    // narrow the next player's options
    focusLot: null,
    focusTurn: null,
    get focus() {
      const g = window.currentGame && window.currentGame();
      return g && g.name === "lordsofvegas" && turnOf(g) === this.focusTurn ? this.focusLot : null;
    },
    cardLabel: (v) => (/^[A-F]\d+$/.test(v) ? v : _("End of Game")),
    cardGroup: (v) => (/^[A-F]\d+$/.test(v) ? v[0] : "★"),
    // End of Game lies in the last quarter of the deck: offered once it can come up, and it asks twice
    // (a slip would end the game at once)
    cardOffered: (v, g) => /^[A-F]\d+$/.test(v) || !!g.scoreboard.deck.end_of_game_can_come,
    cardConfirm: (v) => !/^[A-F]\d+$/.test(v),
    cardGroupNote: (key, g) => (key === "F" && g.players.length === 2
      ? _("out of play with two players: the card pays, then draw again") : ""),
    scores(sb) {
      return sb.players.map((p, i) => ({
        values: [
          { text: String(p.points), unit: ngettext("point", "points", p.points), testid: `points-${i}` },
          { text: `$${p.money}M`, unit: "", testid: `score-${i}` },
        ],
        detail: [
          ngettext("{n} marker left", "{n} markers left", p.markers_left),
          p.boss_of.length ? _("boss of {casinos}", { casinos: p.boss_of.join(", ") }) : "",
        ].filter(Boolean).join(" · "),
      }));
    },
    // most points; a tie goes to the one with more money
    rank(sb) {
      return sb.players.map((p, seat) => ({ seat, p }))
        .sort((a, b) => b.p.points - a.p.points || b.p.money - a.p.money)
        .map(({ seat, p }) => ({
          seat,
          key: `${p.points}:${p.money}`,
          main: ngettext("{n} point", "{n} points", p.points),
          tiebreak: sb.players.some((o, j) => j !== seat && o.points === p.points)
            ? _("tie on points: ${m}M in money", { m: p.money }) : "",
        }));
    },
    // what the latest draw paid: a card that stays until the table dismisses it
    summary(sb, game) {
      const paid = sb.paid;
      if (!paid) return null;
      const h = window.h;
      return {
        key: `draw:${paid.number}`,
        title: _("Draw {n}: {what}", { n: paid.number, what: paid.title }),
        build: () => {
          const colours = window.seatColours(game);
          const marks = window.initials(game.players);
          const out = [];
          if (paid.players.length) {
            const table = h("table", "summary-table");
            table.dataset.testid = "paid-table";
            const head = h("tr");
            head.append(h("th", "", _("Player")), h("th", "", _("Money")), h("th", "", _("Points")), h("th", "", _("Paid for")));
            table.append(head);
            for (const p of paid.players) {
              const tr = h("tr");
              const who = h("th");
              who.append(window.badge(colours[p.seat], marks[p.seat]), " ", game.players[p.seat]);
              const lines = h("td");
              for (const line of p.lines) lines.append(h("div", "paid-why", line));
              tr.append(who, h("td", "big-paid", p.money ? `+$${p.money}M` : "—"),
                h("td", "big-paid", p.points ? `+${p.points}` : "—"), lines);
              table.append(tr);
            }
            out.push(table);
          } else {
            out.push(h("p", "summary-line", _("Nobody was paid for this card.")));
          }
          if (paid.no_casino) out.push(h("p", "summary-line muted", paid.no_casino));
          if (paid.ties.length) {
            out.push(h("h3", "", _("Boss ties rerolled first")));
            for (const t of paid.ties) out.push(h("p", "summary-line", t.text));
          }
          for (const r of redrawsBefore(game.log, paid)) {
            const box = h("section", "summary-redraw");
            box.dataset.testid = "redraw";
            box.append(h("h3", "", _("Draw {n}: {what}", { n: r.number, what: r.card })),
              ...r.lines.map((e) => h("p", "summary-line", e.text)));
            out.push(box);
          }
          return out;
        },
      };
    },
    render(sb, el, game) {
      const self = this;
      const h = window.h;
      const colourOf = (seat) => (seat === null || seat === undefined ? null : sb.players[seat].colour);
      const boss = {};
      for (const c of sb.casinos) for (const lot of c.lots) boss[lot] = c;

      const head = h("div", "lv-head");
      head.append(h("b", "", sb.last_card ? _("Drawn: {card}", { card: sb.last_card.label }) : _("No card drawn yet")),
        h("span", "muted", " · " + ngettext("{n} card left", "{n} cards left", sb.deck.count)));

      const marks = window.initials(sb.players.map((p) => p.name));
      const board = h("div", "lov-board");
      board.dataset.testid = "lov-board";
      const strip = h("div", "lov-strip", _("THE STRIP"));
      strip.style.gridColumn = "4";
      strip.style.gridRow = "1 / span 10";
      board.append(strip);
      const byLot = {};
      for (const lot of sb.lots) {
        byLot[lot.lot] = lot;
        const block = lot.lot[0];
        const n = parseInt(lot.lot.slice(1), 10) - 1;
        const cell = h("button", "lov-lot");
        cell.type = "button";
        cell.dataset.lot = lot.lot;
        cell.style.gridRow = String(ROW[block] + Math.floor(n / 3));
        cell.style.gridColumn = String(COL[block] + (n % 3) + 1);
        cell.append(h("span", "lov-name", lot.lot));
        let says = lot.lot;
        if (lot.tile) {
          cell.style.background = TILE[lot.tile.colour] || "#999";
          cell.style.color = TILE_INK[lot.tile.colour] || "#111";
          cell.classList.add("built");
          if (lot.tile.player !== null && lot.tile.player !== undefined) {
            const d = h("span", `die ${colourOf(lot.tile.player)}`, String(lot.tile.value));
            cell.append(d, h("span", "lov-owner", marks[lot.tile.player]));
          } else {
            cell.append(h("span", "lov-owner", "—"));
          }
          says = _("{lot}: {colour} tile", { lot: lot.lot, colour: lot.tile.colour });
          const casino = boss[lot.lot];
          if (casino && casino.boss !== null && casino.boss !== undefined) {
            cell.style.outlineColor = CSS[colourOf(casino.boss)] || "#fff";
            cell.classList.add("bossed");
          }
        } else if (lot.out_of_play) {
          // two players: the F block is not played; its cards still pay when drawn
          cell.classList.add("out-of-play");
          cell.append(h("span", "lov-cost", _("out of play")));
          says = _("{lot}: out of play with two players", { lot: lot.lot });
        } else {
          cell.append(h("span", "lov-cost", `$${lot.cost}M · ${lot.die}`));
          if (lot.marker !== null && lot.marker !== undefined) {
            cell.classList.add("marked");
            cell.style.borderColor = CSS[colourOf(lot.marker)] || "#fff";
            cell.append(window.badge(colourOf(lot.marker), marks[lot.marker]));
            says = _("{lot}: marked by {name}", { lot: lot.lot, name: sb.players[lot.marker].name });
          }
        }
        cell.setAttribute("aria-label", says);
        if (lot.strip) cell.classList.add("on-strip");
        if (self.focus === lot.lot) cell.classList.add("focused");
        cell.onclick = () => {
          self.focusLot = self.focus === lot.lot ? null : lot.lot;
          self.focusTurn = turnOf(game);
          if (window.rerender) window.rerender();
        };
        board.append(cell);
      }
      const parts = [head, board];
      const send = (action) => window.submitAction && window.submitAction(action);
      const field = (label, input) => { const l = h("label", "lov-field", label); l.append(input); return l; };
      const number = (max) => { const i = h("input"); i.type = "number"; i.min = "0"; if (max) i.max = String(max); i.value = "0"; return i; };

      // Gamble any amount up to the limit the rules give for each casino (options carry the largest).
      const bets = (game.awaiting.options || []).filter((o) => o.action.type === "gamble");
      if (bets.length) {
        const form = h("div", "payout lov-form");
        form.dataset.testid = "gamble-form";
        const casino = h("select");
        for (const o of bets) {
          const opt = h("option", "", _("{lot} (up to ${amount}M)", { lot: o.action.lot, amount: o.action.amount }));
          opt.value = o.action.lot;
          opt.dataset.max = o.action.amount;
          casino.append(opt);
        }
        const amount = number(bets[0].action.amount);
        amount.min = "1";
        amount.value = "1";
        casino.onchange = () => { amount.max = casino.selectedOptions[0].dataset.max; };
        const go = h("button", "primary", _("Gamble"));
        go.type = "button";
        go.onclick = () => send({ type: "gamble", lot: casino.value, amount: parseInt(amount.value, 10) });
        form.append(h("h2", "", _("Gamble")), field(_("Casino") + " ", casino), field(" " + _("$M") + " ", amount), go);
        parts.push(form);
      }

      // Trades may happen between any two players whenever nothing else is pending.
      if (["draw", "play"].includes(sb.phase)) {
        const form = h("details", "payout lov-form");
        form.dataset.testid = "trade-form";
        form.append(h("summary", "", _("Trade")));
        const seat = () => {
          const sel = h("select");
          sb.players.forEach((p, i) => { const o = h("option", "", p.name); o.value = String(i); sel.append(o); });
          return sel;
        };
        const a = seat(), b = seat();
        b.value = "1";
        const moneyA = number(), moneyB = number(), lotsA = h("input"), lotsB = h("input"), diceA = h("input"), diceB = h("input");
        for (const i of [lotsA, lotsB, diceA, diceB]) i.placeholder = _("e.g. A1 C5");
        const list = (i) => i.value.split(/[\s,]+/).map((x) => x.trim().toUpperCase()).filter(Boolean);
        const go = h("button", "primary", _("Record the trade"));
        go.type = "button";
        go.onclick = () => send({
          type: "trade", a: parseInt(a.value, 10), b: parseInt(b.value, 10),
          money_a: parseInt(moneyA.value, 10) || 0, money_b: parseInt(moneyB.value, 10) || 0,
          lots_a: list(lotsA), lots_b: list(lotsB), dice_a: list(diceA), dice_b: list(diceB),
        });
        form.append(
          h("div", "muted", _("Everything changes hands at once; points and tiles cannot be traded.")),
          field(_("From"), a), field(_("gives $M"), moneyA), field(_("lots"), lotsA), field(_("dice on"), diceA),
          h("br"), field(_("To"), b), field(_("gives $M"), moneyB), field(_("lots"), lotsB), field(_("dice on"), diceB),
          h("div", "row"), go,
        );
        parts.push(form);
      }
      if (self.focus && byLot[self.focus]) {
        const lot = byLot[self.focus];
        const zoom = h("div", "lov-zoom");
        zoom.dataset.testid = "lot-zoom";
        zoom.append(h("b", "lov-zoom-name", lot.lot));
        const facts = [_("costs ${cost}M, die {die}", { cost: lot.cost, die: lot.die })];
        if (lot.strip) facts.push(_("on the Strip"));
        if (lot.marker !== null && lot.marker !== undefined) facts.push(_("marked by {name}", { name: sb.players[lot.marker].name }));
        if (lot.tile) {
          facts.push(_("{colour} tile", { colour: lot.tile.colour }));
          if (lot.tile.player !== null && lot.tile.player !== undefined) {
            facts.push(_("{name}'s die shows {value}", { name: sb.players[lot.tile.player].name, value: lot.tile.value }));
          }
          const casino = boss[lot.lot];
          if (casino) {
            facts.push(ngettext("casino of {n} tile", "casino of {n} tiles", casino.size));
            if (casino.boss !== null && casino.boss !== undefined) facts.push(_("boss: {name}", { name: sb.players[casino.boss].name }));
          }
        }
        zoom.append(h("span", "", facts.join(" · ")));
        // said only when the list is narrowed: a choice about something else (a lay-off) shows in full
        const onLot = (game.awaiting.options || []).some((o) => JSON.stringify(o.action).includes(`"${lot.lot}"`));
        if (onLot) zoom.append(h("span", "muted", _("The moves listed are those on this lot; tap it again for all.")));
        parts.splice(1, 0, zoom);
      }
      el.replaceChildren(...parts);
    },
  };
})();
